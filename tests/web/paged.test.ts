// A paged result's pieces on the page's side: the page cache, the row limit
// from the address, and the questions asked part by part, whose merged
// answers must equal what the viewer's own code makes of the same rows held
// whole (lib/search.ts, pie.ts, selection.ts): the stand-in engine below
// answers each part from a held result, sliced to the part's rows.
import { describe, expect, it } from 'vitest';
import type { ColumnTotal, KeyTotals, RawRuleResult } from '../../web/src/engine/types';
import { PageCache, pagedRowsLimit, PAGED_ROWS } from '../../web/src/lib/paged';
import {
  Dropped,
  keyTotalsInParts,
  PART_ROWS,
  rowsWithKeysInParts,
  searchInParts,
  totalsInParts,
  type PagedEngine,
} from '../../web/src/lib/paged_queries';
import { filterRowsByKeys, sumByKey, COUNT_ROWS } from '../../web/src/lib/pie';
import { cellDisplay, type DecodedResult } from '../../web/src/lib/result';
import { SearchIndex } from '../../web/src/lib/search';
import { columnSums } from '../../web/src/lib/selection';
import { rawResult, table } from './helpers';

// Past two parts: row i has Name "k<i % 7>" ("-" when i % 13 == 0) and Total i * 3 ("-" when i % 17 == 5).
const N = 2 * PART_ROWS + 12345;
const columns = () => [
  { name: 'Total', unit: 'ns', kind: 'int' as const, values: Array.from({ length: N }, (_, i) => (i % 17 === 5 ? null : i * 3)) },
  { name: 'Name', kind: 'text' as const, values: Array.from({ length: N }, (_, i) => (i % 13 === 0 ? null : `k${i % 7}`)) },
];
const held = table(columns());

/** Answers each part from `t` held whole, as the engine answers from its rows. */
function standIn(t: DecodedResult, parts: { first: number; count: number }[]): PagedEngine {
  const inRange = (rows: ArrayLike<number>, first: number, count: number) =>
    Uint32Array.from(Array.from(rows).filter((r) => r >= first && r < first + count));
  const index = new SearchIndex(t);
  const masks = new Map<string, Uint8Array | null>();
  return {
    pageRows: async () => ({}) as RawRuleResult,
    searchRows: async (query, first, count) => {
      parts.push({ first, count });
      if (!masks.has(query)) masks.set(query, index.match(query));
      const mask = masks.get(query)!;
      return mask ? mask.slice(first, first + count) : null;
    },
    keyTotals: async (keyCol, valueCol, first, count): Promise<KeyTotals> => {
      parts.push({ first, count });
      const rows = Array.from({ length: Math.min(count, t.rowCount - first) }, (_, i) => first + i);
      const entries = sumByKey(t, valueCol < 0 ? COUNT_ROWS : valueCol, keyCol, rows);
      return { keys: entries.map((e) => e.key), values: Float64Array.from(entries.map((e) => e.value)) };
    },
    rowsWithKeys: async (keyCol, keys, first, count) => {
      parts.push({ first, count });
      return inRange(filterRowsByKeys(t, keyCol, keys), first, count);
    },
    columnTotals: async (cols, rows, summaryRow, first, count): Promise<ColumnTotal[]> => {
      parts.push({ first, count });
      const list = rows ?? Array.from({ length: Math.min(count, t.rowCount - first) }, (_, i) => first + i);
      const names = cols.map((c) => t.columns[c].name);
      return columnSums(t, names, new Set(), list, () => false).map((s) => ({ col: s.col, digits: String(s.value) }));
    },
  };
}

describe('questions asked part by part', () => {
  it('a search over parts is the search of the rows held whole', async () => {
    const parts: { first: number; count: number }[] = [];
    const mask = await searchInParts(standIn(held, parts), 'K3', N, () => true);
    expect(parts).toEqual([
      { first: 0, count: PART_ROWS },
      { first: PART_ROWS, count: PART_ROWS },
      { first: 2 * PART_ROWS, count: 12345 },
    ]);
    const whole = new SearchIndex(held).match('K3')!;
    expect(mask!.length).toBe(whole.length);
    expect(Buffer.compare(Buffer.from(mask!), Buffer.from(whole))).toBe(0);
    expect(mask!.reduce((n, v) => n + v, 0)).toBeGreaterThan(0);
    expect(await searchInParts(standIn(held, []), '   ', N, () => true)).toBeNull();
  });

  it('pie sums, slice rows and column sums merged from parts are those of the whole', async () => {
    const engine = standIn(held, []);
    const entries = await keyTotalsInParts(engine, 1, 0, N, () => true);
    expect(new Map(entries.map((e) => [e.key, e.value]))).toEqual(new Map(sumByKey(held, 0, 1).map((e) => [e.key, e.value])));
    const rows = await rowsWithKeysInParts(engine, 1, ['k2', '-'], N, () => true);
    expect(rows).toEqual(filterRowsByKeys(held, 1, ['k2', '-']));
    const all = await totalsInParts(engine, [0], null, '', N, () => true);
    let want = 0n;
    for (let i = 0; i < N; i++) if (i % 17 !== 5) want += BigInt(i * 3);
    expect(all).toEqual([{ col: 0, value: want }]);
    const some = await totalsInParts(engine, [0], Uint32Array.of(1, 2, 5), '', N, () => true);
    expect(some).toEqual([{ col: 0, value: 9n }]); // 3 + 6; row 5's Total is "-"
  }, 60_000);

  it('a question dropped between parts stops at its next part', async () => {
    const parts: { first: number; count: number }[] = [];
    let asked = 0;
    await expect(searchInParts(standIn(held, parts), 'k1', N, () => asked++ < 1)).rejects.toBeInstanceOf(Dropped);
    expect(parts).toHaveLength(1);
  });
});

describe('the page cache', () => {
  it('holds the rows of the pages it was given and says which are missing', () => {
    const page = table([
      { name: 'Total', kind: 'int', values: [5, null] },
      { name: 'Name', kind: 'text', values: ['b', 'a'] },
    ]);
    const cache = new PageCache();
    expect(Array.from(cache.missing([9, 4, 7]))).toEqual([9, 4, 7]);
    cache.add([9, 4], page);
    expect(Array.from(cache.missing([9, 4, 7]))).toEqual([7]);
    expect(cache.display(9, 1)).toBe('b');
    expect(cache.display(4, 0)).toBe('-');
    expect(cache.display(7, 0)).toBeNull();
    expect(cellDisplay(page, 0, 0)).toBe(cache.display(9, 0));
  });

  it('gives each row its spans, none for a "-" span', () => {
    const raw = rawResult([{ name: 'Total', kind: 'int', values: [1, 2] }]);
    const none = -(2n ** 63n);
    raw.spans = [{ name: 'Kernel', start: BigInt64Array.of(10n, none), end: BigInt64Array.of(20n, none) }];
    const cache = new PageCache();
    cache.add([3, 8], table([{ name: 'Total', kind: 'int', values: [1, 2] }]));
    expect(cache.span(3, 0)).toBeNull(); // that page had no spans
    const withSpans = new PageCache();
    withSpans.add([3, 8], { ...table([{ name: 'Total', kind: 'int', values: [1, 2] }]), spans: raw.spans });
    expect(withSpans.span(3, 0)).toEqual([10n, 20n]);
    expect(withSpans.span(8, 0)).toBeNull();
  });

  it('reads the row limit from the address', () => {
    expect(pagedRowsLimit('')).toBe(PAGED_ROWS);
    expect(pagedRowsLimit('?pagedRows=50')).toBe(50);
    expect(pagedRowsLimit('?pagedRows=-3')).toBe(PAGED_ROWS);
    expect(pagedRowsLimit('?pagedRows=x')).toBe(PAGED_ROWS);
  });
});

// A paged result's questions, asked of the engine part by part (PART_ROWS
// rows each): the worker answers one request at a time, so between two
// parts it answers the pages the table scrolls to, and a question that is
// no longer wanted (a new query typed) stops at its next part. Each merges
// its parts into what the viewer's own code makes of a result it holds.
import type { EngineClient } from '../engine/client';
import type { ColumnTotal, KeyTotals, RawRuleResult, ShownTimes } from '../engine/types';
import type { PieEntry } from './pie';

/** Rows a part covers: about half a second of a trace's rows in the browser's engine. */
export const PART_ROWS = 1 << 18;

/** The engine calls a paged result needs (EngineClient's, bound to one result). */
export interface PagedEngine {
  pageRows(rows: Uint32Array): Promise<RawRuleResult>;
  searchRows(query: string, first: number, count: number): Promise<Uint8Array | null>;
  keyTotals(keyCol: number, valueCol: number, first: number, count: number): Promise<KeyTotals>;
  rowsWithKeys(keyCol: number, keys: string[], first: number, count: number): Promise<Uint32Array>;
  columnTotals(cols: number[], rows: Uint32Array | null, summaryRow: string, first: number, count: number): Promise<ColumnTotal[]>;
}

/** The client's calls bound to result `result`; its search matches the `times` columns as ns since their zero, as shown. */
export function pagedEngineOf(client: EngineClient, result: number, times: ShownTimes | null = null): PagedEngine {
  return {
    pageRows: (rows) => client.pageRows(result, rows),
    searchRows: (query, first, count) => client.searchRows(result, query, first, count, times),
    keyTotals: (keyCol, valueCol, first, count) => client.keyTotals(result, keyCol, valueCol, first, count),
    rowsWithKeys: (keyCol, keys, first, count) => client.rowsWithKeys(result, keyCol, keys, first, count),
    columnTotals: (cols, rows, summaryRow, first, count) => client.columnTotals(result, cols, rows, summaryRow, first, count),
  };
}

/** Thrown when a question was dropped between its parts. */
export class Dropped extends Error {
  constructor() {
    super('dropped');
  }
}

/** `still()` is asked before each part; false drops the question. */
type Still = () => boolean;

async function forParts(rowCount: number, still: Still, part: (first: number, count: number) => Promise<void>): Promise<void> {
  for (let first = 0; first < rowCount; first += PART_ROWS) {
    if (!still()) throw new Dropped();
    await part(first, Math.min(PART_ROWS, rowCount - first));
  }
}

/** The search box's mask over every row (null: a blank query). */
export async function searchInParts(engine: PagedEngine, query: string, rowCount: number, still: Still): Promise<Uint8Array | null> {
  if (query.trim() === '') return null;
  const mask = new Uint8Array(rowCount);
  await forParts(rowCount, still, async (first, count) => {
    const part = await engine.searchRows(query, first, count);
    if (part) mask.set(part.subarray(0, count), first);
  });
  return mask;
}

/** The pie's entries: each key's value summed over every part, keys in first-appearance order. */
export async function keyTotalsInParts(
  engine: PagedEngine,
  keyCol: number,
  valueCol: number,
  rowCount: number,
  still: Still,
): Promise<PieEntry[]> {
  const sums = new Map<string, number>();
  await forParts(rowCount, still, async (first, count) => {
    const part = await engine.keyTotals(keyCol, valueCol, first, count);
    part.keys.forEach((k, i) => sums.set(k, (sums.get(k) ?? 0) + part.values[i]));
  });
  return [...sums].map(([key, value]) => ({ key, value }));
}

/** A pie slice's rows, ascending. */
export async function rowsWithKeysInParts(
  engine: PagedEngine,
  keyCol: number,
  keys: string[],
  rowCount: number,
  still: Still,
): Promise<Uint32Array> {
  const parts: Uint32Array[] = [];
  await forParts(rowCount, still, async (first, count) => {
    parts.push(await engine.rowsWithKeys(keyCol, keys, first, count));
  });
  const out = new Uint32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A column's sum: exact (BigInt) for an integer column, a double for a decimal one. */
export interface PagedSum {
  col: number;
  value: bigint | number;
}

function addTotals(into: Map<number, bigint | number>, part: ColumnTotal[]): void {
  for (const t of part) {
    const prev = into.get(t.col);
    if (t.digits !== undefined) into.set(t.col, (typeof prev === 'bigint' ? prev : 0n) + BigInt(t.digits));
    else into.set(t.col, (typeof prev === 'number' ? prev : 0) + (t.value ?? 0));
  }
}

/**
 * The sums of `cols` over `rows` (null: every row), the summary row left
 * out; `rows` are sent PART_ROWS at a time too.
 */
export async function totalsInParts(
  engine: PagedEngine,
  cols: number[],
  rows: Uint32Array | null,
  summaryRow: string,
  rowCount: number,
  still: Still,
): Promise<PagedSum[]> {
  const sums = new Map<number, bigint | number>();
  if (rows) {
    for (let at = 0; at === 0 || at < rows.length; at += PART_ROWS) {
      if (!still()) throw new Dropped();
      addTotals(sums, await engine.columnTotals(cols, rows.slice(at, at + PART_ROWS), summaryRow, 0, 0));
    }
  } else {
    await forParts(Math.max(rowCount, 1), still, async (first, count) => {
      addTotals(sums, await engine.columnTotals(cols, null, summaryRow, first, count));
    });
  }
  return [...sums].map(([col, value]) => ({ col, value }));
}

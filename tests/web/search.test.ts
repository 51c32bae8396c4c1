// The table search (web/src/lib/search.ts): matches worked out by hand on a
// small table, and a million rows against a plain loop over the displays.
import { describe, expect, it } from 'vitest';
import { THIN_SPACE as T } from '../../web/src/lib/format';
import { cellDisplay, decodeResult, identityOrder } from '../../web/src/lib/result';
import { filterOrder, matchPositions, SearchIndex, stepMatch } from '../../web/src/lib/search';
import { table } from './helpers';

// hggc_api_sum-like rows: Name, Total Time (grouped), Percent (Decimal1), PID (an id: not grouped).
const apis = () =>
  table([
    { name: 'Name', kind: 'text', values: ['hggcLaunchKernel', 'hggcMemcpyAsync', null, 'HGGCMALLOC', '=SUM(A1)'] },
    { name: 'Total Time', unit: 'ns', kind: 'int', values: [1234567, 98, 5000, null, -12] },
    { name: 'Percent', unit: '%', kind: 'decimal1', values: [84.9, 0.0, 12.3, 2.8, 0.04] },
    { name: 'PID', kind: 'int', values: [4321, 4321, 77, 1234, 8] },
  ]);
const rows = (mask: Uint8Array | null) => (mask ? [...mask.keys()].filter((r) => mask[r] === 1) : null);

describe('SearchIndex.match', () => {
  const t = apis();
  const index = new SearchIndex(t);
  it('is null for a blank query', () => {
    expect(index.match('')).toBeNull();
    expect(index.match('   ')).toBeNull();
  });
  it('matches text case-insensitively, anywhere in the cell', () => {
    expect(rows(index.match('hggc'))).toEqual([0, 1, 3]);
    expect(rows(index.match('MEMCPY'))).toEqual([1]);
    expect(rows(index.match('malloc'))).toEqual([3]);
    expect(rows(index.match('=sum('))).toEqual([4]);
    expect(rows(index.match('nothing like it'))).toEqual([]);
  });
  it('matches numbers as displayed, group separators ignored on both sides', () => {
    expect(cellDisplay(t, 0, 1)).toBe(`1${T}234${T}567`);
    // "1234": row 0's Total Time (1 234 567) and row 3's PID 1234; not 4321.
    expect(rows(index.match('1234'))).toEqual([0, 3]);
    expect(rows(index.match(`1${T}234`))).toEqual([0, 3]);
    expect(rows(index.match('1 234 567'))).toEqual([0]);
    // "84.9" and "2.8" (Decimal1, one decimal as shown); "0.0" is row 1's 0.0 and row 4's 0.04 shown "0.0".
    expect(rows(index.match('84.9'))).toEqual([0]);
    expect(rows(index.match('0.0'))).toEqual([1, 4]);
    // "98" is row 1's Total Time only (no other cell shows 98).
    expect(rows(index.match('98'))).toEqual([1]);
  });
  it('matches "-" cells and negative numbers by "-"', () => {
    // Row 2's Name is "-", row 3's Total Time is "-", row 4's is -12.
    expect(rows(index.match('-'))).toEqual([2, 3, 4]);
    expect(rows(index.match('-12'))).toEqual([4]);
  });
  it('never matches across cells', () => {
    expect(rows(index.match('kernel1'))).toEqual([]);
    expect(rows(index.match('\0'))).toEqual([]);
  });
});

describe('positions, filter and steps', () => {
  const order = Uint32Array.from([4, 2, 0, 3, 1]); // a sorted table
  const mask = Uint8Array.from([1, 0, 1, 1, 0]);
  it('lists the matches in table order', () => {
    expect([...matchPositions(order, mask)]).toEqual([1, 2, 3]);
    expect([...filterOrder(order, mask)]).toEqual([2, 0, 3]);
  });
  it('steps forward and back, wrapping around', () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(0, 0, 1)).toBe(-1);
  });
});

it('searches a million rows as a plain loop over their displays does', () => {
  const N = 1_000_000;
  // Name "k_<i mod 1000>" (1000 distinct texts), Total Time i * 37 (grouped), Device i mod 8 (an id).
  const names = Array.from({ length: 1000 }, (_, i) => `K_${i}`);
  const t = decodeResult({
    columns: [
      { name: 'Name', unit: '', kind: 'text' },
      { name: 'Total Time', unit: 'ns', kind: 'int' },
      { name: 'Device ID', unit: '', kind: 'int' },
    ],
    rowCount: N,
    textPool: names.join('\0'),
    cells: [
      Uint32Array.from({ length: N }, (_, i) => i % 1000),
      Float64Array.from({ length: N }, (_, i) => i * 37),
      Float64Array.from({ length: N }, (_, i) => i % 8),
    ],
  });
  const index = new SearchIndex(t);
  const order = identityOrder(N);
  // Text: "k_99" is in K_99 and K_990..K_999 (11 of every 1000 rows); no number has "k".
  const text = index.match('k_99')!;
  expect(matchPositions(order, text).length).toBe(11 * 1000);
  // Numbers: rows whose Total Time (digits of i * 37) or Device ID (i mod 8) or Name contains "777", by a plain loop.
  let expected = 0;
  for (let i = 0; i < N; i++) if (String(i * 37).includes('777') || names[i % 1000].includes('777')) expected++;
  index.match('1'); // builds the number displays once
  const num = index.match('777')!;
  expect(filterOrder(order, num).length).toBe(expected);
}, 180_000);

describe('search over time columns shown from the time zero', () => {
  it('matches the time since the zero that the cell shows, not the absolute ns', () => {
    // Start 1 000 250 000 absolute, the zero 1 000 000 000: shown "250 000".
    const raw = table([{ name: 'Start', unit: 'ns', kind: 'int', values: [1_000_250_000, 1_000_000_007] }]);
    const t = { ...raw, zero: 1_000_000_000n };
    const index = new SearchIndex(t);
    expect(rows(index.match('250000'))).toEqual([0]);
    expect(rows(index.match('250 000'))).toEqual([0]);
    expect(rows(index.match('1000250000'))).toEqual([]);
    expect(rows(index.match('7'))).toEqual([1]);
  });
});

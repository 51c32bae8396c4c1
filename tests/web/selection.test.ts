import { describe, expect, it } from 'vitest';
import { decodeResult } from '../../web/src/lib/result';
import { clickRow, columnSums, NO_SELECTION, summaryRowTest, summedRows, movedFocus } from '../../web/src/lib/selection';
import { THIN_SPACE as T } from '../../web/src/lib/format';
import { table } from './helpers';

// ppu_op_type_sum on the demo report (asys stats), trimmed: the Summary row
// first, then the types.
const types = () =>
  table([
    { name: 'OP Type', kind: 'text', values: ['Summary', 'MoE', 'PCCL', 'GEMM', 'Elementwise', 'FlashAttention', 'PyTorch'] },
    { name: 'Percent', unit: '%', kind: 'decimal1', values: [100.0, 43.8, 32.0, 15.5, 4.5, 2.6, 1.8] },
    {
      name: 'Total Time',
      unit: 'ns',
      kind: 'int',
      values: [639510116, 279862732, 204418748, 98859861, 28465159, 16389096, 11514520],
    },
    { name: 'Instances', kind: 'int', values: [2124, 192, 64, 432, 476, 192, null] },
  ]);
const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

describe('clickRow', () => {
  const order = Uint32Array.from([3, 1, 4, 0, 2]); // a sorted table's order
  it('selects one row, and clears it on a second click', () => {
    const one = clickRow(NO_SELECTION, 4, { toggle: false, range: false }, order);
    expect([...one.rows]).toEqual([4]);
    expect(clickRow(one, 4, { toggle: false, range: false }, order).rows.size).toBe(0);
    expect([...clickRow(one, 0, { toggle: false, range: false }, order).rows]).toEqual([0]);
  });
  it('adds and removes rows with Ctrl/Cmd', () => {
    let s = clickRow(NO_SELECTION, 3, { toggle: true, range: false }, order);
    s = clickRow(s, 2, { toggle: true, range: false }, order);
    expect([...s.rows].sort()).toEqual([2, 3]);
    s = clickRow(s, 3, { toggle: true, range: false }, order);
    expect([...s.rows]).toEqual([2]);
  });
  it('selects the rows shown between the anchor and a Shift-click, in the table order', () => {
    const s = clickRow(clickRow(NO_SELECTION, 1, { toggle: false, range: false }, order), 0, { toggle: false, range: true }, order);
    // order positions 1..3: rows 1, 4, 0
    expect([...s.rows].sort()).toEqual([0, 1, 4]);
    expect(s.anchor).toBe(1);
  });
});

describe('columnSums', () => {
  it('sums every row shown but the Summary row when none is selected', () => {
    const t = types();
    const sums = columnSums(t, ['Total Time', 'Percent', 'Instances'], new Set(), all(t.rowCount), summaryRowTest(t, 'Summary'));
    // 279862732 + 204418748 + 98859861 + 28465159 + 16389096 + 11514520 = 639510116,
    // the Summary row's own Total Time; percents 43.8 + 32.0 + 15.5 + 4.5 + 2.6 + 1.8 = 100.2.
    expect(sums.map((s) => s.text)).toEqual([`639${T}510${T}116`, '100.2', `1${T}356`]);
  });
  it('sums the selected rows only, and the Summary row never', () => {
    const t = types();
    const sums = columnSums(t, ['Total Time', 'Percent'], new Set([0, 1, 2, 3]), all(t.rowCount), summaryRowTest(t, 'Summary'));
    expect(sums.map((s) => [s.col, s.text])).toEqual([
      [2, `583${T}141${T}341`], // 279862732 + 204418748 + 98859861
      [1, '91.3'],
    ]);
  });
  it('leaves out a selected row the Filter search hides', () => {
    const t = types();
    // MoE, PCCL and GEMM selected; the search shows PCCL, GEMM and Elementwise only.
    const shown = Uint32Array.from([2, 3, 4]);
    expect([...summedRows(new Set([1, 2, 3]), shown)]).toEqual([2, 3]);
    const sums = columnSums(t, ['Total Time'], new Set([1, 2, 3]), shown, summaryRowTest(t, 'Summary'));
    expect(sums.map((s) => s.value)).toEqual([204418748 + 98859861]);
    // Nothing selected: every row shown, in shown order.
    expect([...summedRows(new Set(), Uint32Array.from([4, 2]))]).toEqual([4, 2]);
  });
  it('sums only the rows shown (a pie filter) when none is selected, and skips unknown columns', () => {
    const t = types();
    const sums = columnSums(t, ['Total Time', 'Trans Size'], new Set(), Uint32Array.from([4, 5]), () => false);
    expect(sums.map((s) => s.value)).toEqual([28465159 + 16389096]);
  });
  it('keeps integer sums exact past 2^53', () => {
    const t = decodeResult({
      columns: [{ name: 'Start', unit: 'ns', kind: 'int' }],
      rowCount: 2,
      textPool: '',
      cells: [BigInt64Array.from([9007199254740993n, 1n])],
    });
    const [sum] = columnSums(t, ['Start'], new Set(), all(2), () => false);
    expect(sum.value).toBe(9007199254740994n);
  });
  it('without a summary row name nothing is a summary row', () => {
    const t = types();
    expect(summaryRowTest(t, '')(0)).toBe(false);
    expect(summaryRowTest(t, 'Summary')(0)).toBe(true);
    expect(summaryRowTest(t, 'Summary')(1)).toBe(false);
  });
});

describe('movedFocus', () => {
  it('moves by a row, a page or to an end, clamped to the rows shown', () => {
    expect(movedFocus(-1, 'ArrowDown', 10, 4)).toBe(0); // the first row from none
    expect(movedFocus(-1, 'ArrowUp', 10, 4)).toBe(9); // the last row from none
    expect(movedFocus(3, 'ArrowDown', 10, 4)).toBe(4);
    expect(movedFocus(0, 'ArrowUp', 10, 4)).toBe(0);
    expect(movedFocus(8, 'PageDown', 10, 4)).toBe(9);
    expect(movedFocus(5, 'PageUp', 10, 4)).toBe(1);
    expect(movedFocus(5, 'Home', 10, 4)).toBe(0);
    expect(movedFocus(5, 'End', 10, 4)).toBe(9);
  });
  it('ignores other keys and an empty table', () => {
    expect(movedFocus(2, 'x', 10, 4)).toBeNull();
    expect(movedFocus(-1, 'ArrowDown', 0, 4)).toBeNull();
  });
});

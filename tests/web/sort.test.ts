import { describe, expect, it } from 'vitest';
import { identityOrder } from '../../web/src/lib/result';
import { nextSort, sortRows, textRanks } from '../../web/src/lib/sort';
import { table } from './helpers';

const t = () =>
  table([
    { name: 'Total Time', unit: 'ns', kind: 'int', values: [300, null, 1000, 20, 300] },
    { name: 'Range', kind: 'text', values: ['iter 10', 'iter 9', null, 'Alpha', 'iter 9'] },
  ]);

describe('sortRows', () => {
  it('sorts numbers numerically, "-" last both ways, ties in engine order', () => {
    const rows = identityOrder(5);
    expect(Array.from(sortRows(t(), rows, 0, 'asc'))).toEqual([3, 0, 4, 2, 1]);
    expect(Array.from(sortRows(t(), rows, 0, 'desc'))).toEqual([2, 0, 4, 3, 1]);
  });

  it('sorts text in natural order', () => {
    const rows = identityOrder(5);
    // Alpha < iter 9 (rows 1, 4) < iter 10; missing last
    expect(Array.from(sortRows(t(), rows, 1, 'asc'))).toEqual([3, 1, 4, 0, 2]);
    expect(Array.from(sortRows(t(), rows, 1, 'desc'))).toEqual([0, 1, 4, 3, 2]);
  });

  it('sorts a subset and leaves the input alone', () => {
    const rows = Uint32Array.from([4, 2, 0]);
    expect(Array.from(sortRows(t(), rows, 0, 'asc'))).toEqual([4, 0, 2]);
    expect(Array.from(rows)).toEqual([4, 2, 0]);
  });

  it('ranks equal texts equally', () => {
    expect(Array.from(textRanks(['b', 'a', 'b', 'item 10', 'item 2']))).toEqual([1, 0, 1, 3, 2]);
  });
});

describe('nextSort', () => {
  it('cycles numbers desc -> asc -> none and text asc -> desc -> none', () => {
    expect(nextSort(null, 2, true)).toEqual({ col: 2, dir: 'desc' });
    expect(nextSort({ col: 2, dir: 'desc' }, 2, true)).toEqual({ col: 2, dir: 'asc' });
    expect(nextSort({ col: 2, dir: 'asc' }, 2, true)).toBeNull();
    expect(nextSort(null, 1, false)).toEqual({ col: 1, dir: 'asc' });
    expect(nextSort({ col: 1, dir: 'asc' }, 1, false)).toEqual({ col: 1, dir: 'desc' });
    expect(nextSort({ col: 1, dir: 'asc' }, 0, true)).toEqual({ col: 0, dir: 'desc' });
  });
});

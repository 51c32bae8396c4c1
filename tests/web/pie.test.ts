import { describe, expect, it } from 'vitest';
import { COUNT_ROWS, filterRowsByKeys, pieModel, sumByKey, topSlices } from '../../web/src/lib/pie';
import { table } from './helpers';

// Kernels on two devices: gemm 500 + 300, reduce 400, copy 250 + 50, add 100, scale 100, missing 20.
const t = () =>
  table([
    { name: 'Total Time', unit: 'ns', kind: 'int', values: [500, 400, 250, 300, 100, 50, 100, 20, null] },
    { name: 'Device ID', kind: 'int', values: [0, 0, 0, 1, 1, 1, 1, 0, 1] },
    { name: 'Name', kind: 'text', values: ['gemm', 'reduce', 'copy', 'gemm', 'add', 'copy', 'scale', null, 'add'] },
  ]);

describe('sumByKey', () => {
  it('sums the value per text key, largest first', () => {
    // gemm 800, reduce 400, copy 300, add 100 (+ missing value = 0), scale 100, "-" 20; ties by key.
    expect(sumByKey(t(), 0, 2)).toEqual([
      { key: 'gemm', value: 800 },
      { key: 'reduce', value: 400 },
      { key: 'copy', value: 300 },
      { key: 'add', value: 100 },
      { key: 'scale', value: 100 },
      { key: '-', value: 20 },
    ]);
  });

  it('sums per numeric key', () => {
    // device 0: 500+400+250+20 = 1170; device 1: 300+100+50+100 = 550
    expect(sumByKey(t(), 0, 1)).toEqual([
      { key: '0', value: 1170 },
      { key: '1', value: 550 },
    ]);
  });

  it('counts rows per key when the chart counts rows', () => {
    // device 0: rows 0, 1, 2, 7; device 1: rows 3, 4, 5, 6, 8 (the missing value counts too)
    expect(sumByKey(t(), COUNT_ROWS, 1)).toEqual([
      { key: '1', value: 5 },
      { key: '0', value: 4 },
    ]);
    const m = pieModel(t(), null, 'Name', 2)!;
    // gemm 2, copy 2, add 2, reduce 1, scale 1, "-" 1: top 2 by count, ties by key
    expect(m.slices.map((s) => [s.name, s.value])).toEqual([
      ['Other', 5],
      ['add', 2],
      ['copy', 2],
    ]);
    expect(m.total).toBe(9);
    expect(pieModel(t(), null, 'Nope', 2)).toBeNull();
  });

  it('sums over chosen rows only', () => {
    expect(sumByKey(t(), 0, 2, [0, 3, 4])).toEqual([
      { key: 'gemm', value: 800 },
      { key: 'add', value: 100 },
    ]);
  });
});

describe('topSlices', () => {
  const entries = [
    { key: 'a', value: 10 },
    { key: 'b', value: 50 },
    { key: 'c', value: 30 },
    { key: 'd', value: 5 },
    { key: 'e', value: 15 },
  ];

  it('keeps all slices when they fit, sorted descending', () => {
    expect(topSlices(entries, 10).map((s) => [s.name, s.value])).toEqual([
      ['b', 50],
      ['c', 30],
      ['e', 15],
      ['a', 10],
      ['d', 5],
    ]);
  });

  it('folds the rest into Other, placed by its value', () => {
    // top 2: b 50, c 30; Other = 15 + 10 + 5 = 30, after c (a tie goes to the real key)
    const s = topSlices(entries, 2);
    expect(s.map((x) => [x.name, x.value, x.other])).toEqual([
      ['b', 50, false],
      ['c', 30, false],
      ['Other', 30, true],
    ]);
    expect(s[2].keys).toEqual(['e', 'a', 'd']);
  });

  it('puts a large Other first when it is the largest', () => {
    const s = topSlices(entries, 1);
    expect(s.map((x) => [x.name, x.value])).toEqual([
      ['Other', 60],
      ['b', 50],
    ]);
  });

  it('keeps a key named Other apart from the rest slice', () => {
    const s = topSlices(
      [
        { key: 'Other', value: 9 },
        { key: 'x', value: 1 },
        { key: 'y', value: 1 },
      ],
      1,
    );
    expect(s.map((x) => x.name)).toEqual(['Other', 'Other ']);
  });
});

describe('pieModel and the slice filter', () => {
  it('builds the chart from column names', () => {
    const m = pieModel(t(), 'Total Time', 'Name', 3)!;
    // top 3: gemm 800, reduce 400, copy 300; Other = add 100 + scale 100 + "-" 20 = 220
    expect(m.slices.map((s) => [s.name, s.value])).toEqual([
      ['gemm', 800],
      ['reduce', 400],
      ['copy', 300],
      ['Other', 220],
    ]);
    expect(m.total).toBe(1720);
    expect(pieModel(t(), 'Nope', 'Name', 3)).toBeNull();
    expect(pieModel(t(), 'Name', 'Name', 3)).toBeNull(); // a text value column cannot be summed
  });

  it('filters rows to a key, or to all of Other', () => {
    expect(Array.from(filterRowsByKeys(t(), 2, ['gemm']))).toEqual([0, 3]);
    expect(Array.from(filterRowsByKeys(t(), 2, ['add', 'scale', '-']))).toEqual([4, 6, 7, 8]);
    expect(Array.from(filterRowsByKeys(t(), 1, ['1']))).toEqual([3, 4, 5, 6, 8]);
  });
});

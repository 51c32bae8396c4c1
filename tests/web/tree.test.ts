import { describe, expect, it } from 'vitest';
import { buildTree, cellHeaders, levelColumns } from '../../web/src/lib/tree';
import { table } from './helpers';

// ppu_op_kernel_breakdown on the demo report (asys stats), trimmed to the
// level columns and one value per level, plus a made-up GEMM row whose
// framework operator has the MoE row's name.
const breakdown = () =>
  table([
    { name: 'OP Type', kind: 'text', values: ['PCCL', 'PCCL', 'PCCL', 'MoE', 'MoE', 'MoE', 'MoE', 'GEMM'] },
    { name: 'Framework OP', kind: 'text', values: ['Native', 'Native', 'Native', 'MoEBackward', 'MoEBackward', 'MoEBackward', 'MoEBackward', 'MoEBackward'] },
    { name: 'Framework Time', unit: '%', kind: 'decimal1', values: [32.0, 32.0, 32.0, 27.4, 27.4, 27.4, 27.4, 1.0] },
    { name: 'Library OP', kind: 'text', values: ['AllReduce c:21504000', 'AllReduce c:152578048', 'AllReduce c:1', 'GroupedWgrad m:2048', 'GroupedNoPad m:32', 'GroupedWgrad m:768', 'Idle', 'Native'] },
    { name: 'Library Time', unit: '%', kind: 'decimal1', values: [19.7, 11.9, 0.4, 7.8, 7.0, 3.9, 3.6, 1.0] },
    { name: 'Kernel Name', kind: 'text', values: ['twoShot', 'twoShot', 'ring_LL', 'grouped_gemm', 'grouped_gemm', 'grouped_gemm', 'Idle', 'sgemm'] },
    { name: 'Kernel Time', unit: '%', kind: 'decimal1', values: [19.7, 11.9, 0.4, 7.8, 7.0, 3.9, 3.6, 1.0] },
  ]);
const LEVELS = ['Framework OP', 'Library OP', 'Kernel Name'];
const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);

describe('buildTree', () => {
  it('assigns each level its column and the ones after it, the leading ones to the first', () => {
    expect(levelColumns(breakdown(), LEVELS)).toEqual([
      [0, 3],
      [3, 5],
      [5, 7],
    ]);
    expect(levelColumns(breakdown(), ['Framework OP', 'Nope'])).toBeNull();
    expect(levelColumns(breakdown(), ['Library OP', 'Framework OP'])).toBeNull();
  });

  it('nests framework -> library -> kernel, one node per group, in row order', () => {
    const t = breakdown();
    const roots = buildTree(t, LEVELS, all(t.rowCount))!;
    // The same framework name under two OP types is two operators.
    expect(roots.map((n) => [n.tags, n.label, n.cells, n.rows])).toEqual([
      [['PCCL'], 'Native', [[2, '32.0']], [0, 1, 2]],
      [['MoE'], 'MoEBackward', [[2, '27.4']], [3, 4, 5, 6]],
      [['GEMM'], 'MoEBackward', [[2, '1.0']], [7]],
    ]);
    expect(roots[1].children.map((n) => [n.level, n.label, n.cells])).toEqual([
      [1, 'GroupedWgrad m:2048', [[4, '7.8']]],
      [1, 'GroupedNoPad m:32', [[4, '7.0']]],
      [1, 'GroupedWgrad m:768', [[4, '3.9']]],
      [1, 'Idle', [[4, '3.6']]],
    ]);
    expect(roots[1].children[3].children.map((n) => [n.level, n.label, n.rows])).toEqual([[2, 'Idle', [6]]]);
    expect(roots[0].children.map((n) => n.children.length)).toEqual([1, 1, 1]);
  });

  it('follows the order it is given (a sorted table)', () => {
    const t = breakdown();
    const roots = buildTree(t, LEVELS, Uint32Array.from([7, 2, 3]))!;
    expect(roots.map((n) => n.tags[0])).toEqual(['GEMM', 'PCCL', 'MoE']);
  });
});

describe('cellHeaders', () => {
  it('names the cells once, without the level word (Framework Time (%) -> Time (%))', () => {
    expect(cellHeaders(breakdown(), LEVELS)).toEqual(['Time (%)']);
    // A header without the level word is kept as it is.
    const t = breakdown();
    t.columns[2] = { ...t.columns[2], header: 'Share (%)' };
    expect(cellHeaders(t, LEVELS)).toEqual(['Share (%)']);
    expect(cellHeaders(breakdown(), ['Framework OP', 'Nope'])).toBeNull();
  });
});

// The advice's findings from hand-made rule results: which rows become
// findings, which stay below a threshold, and the numbers each one carries
// (worked out by hand from the rows below).
import { describe, expect, it } from 'vitest';
import {
  adviceFindings,
  desyncFindings,
  gapFinding,
  pageableFinding,
  topOperatorFinding,
  unreleasedFinding,
  utilFinding,
} from '../../web/src/lib/advice';
import { decodeResult } from '../../web/src/lib/result';
import { rawResult, table, type ColumnInput } from './helpers';

/** A result whose rows have one span each ([start, start + duration] in the engine's time, offset by 1e9 here). */
function withSpans(name: string, columns: ColumnInput[], starts: number[], durations: number[]) {
  const raw = rawResult(columns);
  raw.spans = [{ name, start: BigInt64Array.from(starts, (s) => BigInt(s + 1e9)), end: BigInt64Array.from(starts, (s, i) => BigInt(s + 1e9 + durations[i])) }];
  return decodeResult(raw);
}

const gaps = () =>
  withSpans(
    'Gap',
    [
      { name: 'Duration', unit: 'ns', kind: 'int', values: [600e6, 900e6, 700e6] },
      { name: 'Start', unit: 'ns', kind: 'int', values: [100, 2000, 5000] },
      { name: 'PID', kind: 'int', values: [11, 12, 11] },
      { name: 'Device ID', kind: 'int', values: [0, 3, 1] },
    ],
    [100, 2000, 5000],
    [600e6, 900e6, 700e6],
  );

describe('advice findings', () => {
  it('ppu_gaps: the longest gap, the count and the total of all', () => {
    const f = gapFinding(gaps())!;
    expect(f.row).toBe(1);
    expect(f.params).toEqual({ count: 3, total: 2200e6, longest: 900e6, pid: '12', device: '3' });
    expect(f.span).toEqual({ name: 'Gap', start: BigInt(1e9 + 2000), end: BigInt(1e9 + 2000 + 900e6) });
  });

  it('ppu_gaps: no gap above the rule option, no finding', () => {
    expect(gapFinding(table([{ name: 'Duration', unit: 'ns', kind: 'int', values: [] }]))).toBeNull();
  });

  it('ppu_time_util: the least used stretch, the longer one on a tie', () => {
    const f = utilFinding(
      withSpans(
        'Stretch',
        [
          { name: 'In-Use', unit: '%', kind: 'decimal1', values: [12.5, 0, 0, null] },
          { name: 'Duration', unit: 'ns', kind: 'int', values: [10, 20, 30, 40] },
          { name: 'Start', unit: 'ns', kind: 'int', values: [1, 2, 3, 4] },
          { name: 'PID', kind: 'int', values: [5, 5, 6, 6] },
          { name: 'Device ID', kind: 'int', values: [0, 0, 1, 1] },
        ],
        [1, 2, 3, 4],
        [10, 20, 30, 40],
      ),
    )!;
    expect(f.row).toBe(2);
    expect(f.params).toMatchObject({ count: 4, total: 100, inUse: 0, duration: 30, pid: '6', device: '1' });
    expect(f.span).toEqual({ name: 'Stretch', start: BigInt(1e9 + 3), end: BigInt(1e9 + 33) });
  });

  it('pccl_desync_summary: above 20% average and at least 1% of the time, worst first', () => {
    const t = table([
      { name: 'Time', unit: '%', kind: 'decimal1', values: [60, 30, 9.5, 0.5] },
      { name: 'Count', kind: 'int', values: [10, 4, 2, 1] },
      { name: 'Desync P90', unit: '%', kind: 'decimal1', values: [40, 90, 20, 99] },
      { name: 'Desync Avg', unit: '%', kind: 'decimal1', values: [25, 70, 20, 95] },
      { name: 'Kernel Name', kind: 'text', values: ['allreduce', 'allgather', 'exactly20', 'rare'] },
    ]);
    const f = desyncFindings(t);
    // exactly 20% is not above the threshold; 'rare' is 0.5% of the time.
    expect(f.map((x) => [x.row, x.params.name, x.params.avg])).toEqual([
      [1, 'allgather', 70],
      [0, 'allreduce', 25],
    ]);
    expect(f[0].params).toMatchObject({ p90: 90, share: 30, count: 4 });
  });

  it('ppu_op_sum: the top operator by total time, only when its device is idle for more than 20% of it', () => {
    const ops = (active: number) =>
      table([
        { name: 'OP Type', kind: 'text', values: ['GEMM', 'MoE'] },
        { name: 'Total Time', unit: 'ns', kind: 'int', values: [100, 300] },
        { name: 'Percent', unit: '%', kind: 'decimal1', values: [25, 75] },
        { name: 'Active Percent', unit: '%', kind: 'decimal1', values: [10, active] },
        { name: 'Compute Util', unit: '%', kind: 'decimal1', values: [50, null] },
        { name: 'OP Name', kind: 'text', values: ['mm', 'moe_fwd'] },
      ]);
    const f = topOperatorFinding(ops(64.5))!;
    expect(f.span).toBeUndefined();
    expect(f.row).toBe(1);
    expect(f.params).toMatchObject({ name: 'moe_fwd', type: 'MoE', share: 75, active: 64.5 });
    expect(Number.isNaN(f.params.compute)).toBe(true);
    // 80% active is not below the threshold; the idle GEMM below it is not the top operator.
    expect(topOperatorFinding(ops(80))).toBeNull();
  });

  it('hggc_ppu_trace: copies from or to pageable memory, counted and summed, the longest shown', () => {
    const f = pageableFinding(
      withSpans(
        'Event',
        [
          { name: 'Start', unit: 'ns', kind: 'int', values: [0, 100, 200, 300, 400] },
          { name: 'Duration', unit: 'ns', kind: 'int', values: [5, 50, 70, 30, 999] },
          { name: 'SrcMemKd', kind: 'text', values: [null, 'Pageable', 'Device', 'Pinned', 'Device'] },
          { name: 'DstMemKd', kind: 'text', values: [null, 'Device', 'Pageable', 'Device', 'Device'] },
          { name: 'Name', kind: 'text', values: ['k', 'HtoD', 'DtoH', 'HtoD', 'DtoD'] },
        ],
        [0, 100, 200, 300, 400],
        [5, 50, 70, 30, 999],
      ),
    )!;
    expect(f.row).toBe(2);
    expect(f.params).toEqual({ count: 2, total: 120, longest: 70, name: 'DtoH' });
    expect(f.span).toEqual({ name: 'Event', start: BigInt(1e9 + 200), end: BigInt(1e9 + 270) });
  });

  it('device_memory_usage_summary: the most memory never freed, rows under 1 MiB left out', () => {
    const mem = (values: number[]) =>
      table([
        { name: 'PID', kind: 'int', values: values.map(() => 7) },
        { name: 'Device ID', kind: 'int', values: values.map((_, i) => i) },
        { name: 'Group List', kind: 'text', values: values.map((_, i) => `g${i}`) },
        { name: 'Memory Usage', unit: 'bytes', kind: 'int', values },
      ]);
    const f = unreleasedFinding(mem([2 << 20, 1048575, 3 << 20]))!;
    expect(f.row).toBe(2);
    expect(f.params).toEqual({ bytes: 3 << 20, total: 5 << 20, count: 2, pid: '7', device: '2', group: 'g2' });
    expect(unreleasedFinding(mem([1048575, 0]))).toBeNull();
  });

  it('adviceFindings: only the results at hand, in the tab order', () => {
    expect(adviceFindings({}).length).toBe(0);
    expect(adviceFindings({ ppu_gaps: gaps() }).map((f) => f.kind)).toEqual(['ppu_gaps']);
  });
});

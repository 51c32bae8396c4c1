// The drag selection's statistics as the page reads them: the worker's
// strict reader of timelineSelection's figures (a missing or mistyped field
// is an error naming it, never a silent 0) and the declaration that lets the
// rules' result view show, sum and export the grouped events.
import { describe, expect, it } from 'vitest';
import { takeSelectionStats } from '../../web/src/engine/timeline_api';
import { selectionTableDecl, SELECTION_TABLE_NAME } from '../../web/src/lib/selection_table';
import { decodeResult } from '../../web/src/lib/result';

const device = {
  device: 0,
  name: 'PPU 0 (PPU-ZW810E)',
  active: 25n,
  idle: 5n,
  kernel: 15n,
  memory: 10n,
  activePercent: 83.3,
  idlePercent: 16.7,
  kernelPercent: 50,
  memoryPercent: 33.3,
};
const answer = (devices: unknown[]) => ({ ok: true, selection: { from: 20n, to: 50n, length: 30n, devices } });

describe('takeSelectionStats', () => {
  it('reads the window and each PPU exactly', () => {
    expect(takeSelectionStats(answer([device]))).toEqual({ from: 20n, to: 50n, length: 30n, devices: [device] });
  });
  it('rejects a missing or mistyped field, naming it', () => {
    const { kernel: _, ...noKernel } = device;
    expect(() => takeSelectionStats(answer([noKernel]))).toThrow('selection.devices[0].kernel is undefined, expected a BigInt');
    expect(() => takeSelectionStats(answer([{ ...device, idlePercent: 'x' }]))).toThrow('selection.devices[0].idlePercent is x, expected a number');
    expect(() => takeSelectionStats({ ok: true, selection: { from: 20, to: 50n, length: 30n, devices: [] } })).toThrow('selection.from is 20');
    expect(() => takeSelectionStats({ ok: true })).toThrow('no selection');
    expect(() => takeSelectionStats({ ok: false, error: 'selection statistics: the window [5, 5) is empty' })).toThrow('is empty');
  });
});

describe('selectionTableDecl', () => {
  const result = decodeResult({
    columns: ['Total Time:ns:int', 'Count::int', 'Avg:ns:int', 'Min:ns:int', 'Max:ns:int', 'In Selection:ns:int', 'Kind::text', 'Name::text'].map((c) => {
      const [name, unit, kind] = c.split(':');
      return { name, unit, kind };
    }),
    rowCount: 1,
    textPool: 'Kernel\0k_a(int)',
    cells: [
      BigInt64Array.of(40n),
      BigInt64Array.of(2n),
      BigInt64Array.of(20n),
      BigInt64Array.of(10n),
      BigInt64Array.of(30n),
      BigInt64Array.of(20n),
      Uint32Array.of(0),
      Uint32Array.of(1),
    ],
  });
  it('makes Name the key (what Mark in timeline marks), Kind an attribute, and sums the totals and counts', () => {
    const decl = selectionTableDecl(result);
    expect(decl.name).toBe(SELECTION_TABLE_NAME);
    expect(decl.columns.filter((c) => c.role === 'key').map((c) => c.name)).toEqual(['Name']);
    expect(decl.columns.find((c) => c.name === 'Kind')!.role).toBe('attribute');
    expect(decl.sumColumns).toEqual(['Total Time', 'Count', 'In Selection']);
    expect(decl.pie).toBeNull();
    expect(decl.options).toEqual([]);
  });
  it('no time column is shown from the time zero: Total Time, Avg and In Selection are durations', () => {
    expect(result.columns.some((c) => c.timePoint)).toBe(false);
  });
});

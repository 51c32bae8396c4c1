import { describe, expect, it } from 'vitest';
import type { ColumnSpec } from '../../web/src/engine/types';
import { hotspots, isPairColumn, pairValues, sideNames } from '../../web/src/lib/compare';
import { table } from './helpers';

const decl = (name: string, role: ColumnSpec['role']): ColumnSpec => ({
  name,
  unit: '',
  kind: 'Text',
  help: '',
  header: name,
  role,
});

describe('pairValues', () => {
  it('reads both sides, "-" as a missing side', () => {
    expect(pairValues('54.5 / 30.0')).toEqual([54.5, 30.0]);
    expect(pairValues('- / 40.0')).toEqual([null, 40.0]);
    expect(pairValues('-')).toEqual([null, null]);
  });
});

// ppu_operator_summary_compare's layout (asys stats on the demo pair), trimmed.
const pairs = () =>
  table([
    { name: 'Device Name', kind: 'text', values: ['PPU-ZW810E / PPU-ZW810E', 'PPU-ZW810E / -'] },
    { name: 'OP Type', kind: 'text', values: ['MoE', 'GEMM'] },
    { name: 'Percent', unit: '%', kind: 'text', values: ['27.4 / 28.6', '3.0 / -'] },
    { name: 'Avg Ratio', kind: 'decimal1', values: [0.8, null] },
    { name: 'Base OP Name', kind: 'text', values: ['MoEFunctionBackward', 'MmBackward0'] },
    { name: 'Target OP Name', kind: 'text', values: ['MoEFunctionBackward', null] },
  ]);

// ppu_operator_kernel_breakdown_compare's layout, trimmed; the second row only in the target.
const sideBlocks = () =>
  table([
    { name: 'OP Type', kind: 'text', values: ['PCCL', 'MoE'] },
    { name: 'Base Library OP', kind: 'text', values: ['AllReduce c:1', null] },
    { name: 'Base Kernel', kind: 'text', values: ['ring_LL', null] },
    { name: 'Base Kernel Time', unit: '%', kind: 'decimal1', values: [0.4, null] },
    { name: 'Target Library OP', kind: 'text', values: ['AllReduce c:1', 'Idle'] },
    { name: 'Target Kernel', kind: 'text', values: ['ring_LL', 'Idle'] },
    { name: 'Target Kernel Time', unit: '%', kind: 'decimal1', values: [0.5, 3.6] },
  ]);

describe('isPairColumn', () => {
  it('follows the declared roles: a shared key is not a pair', () => {
    const declared = [decl('Device Name', 'value'), decl('OP Type', 'key'), decl('Percent', 'value'), decl('Base OP Name', 'attribute')];
    expect([0, 1, 2, 3, 4].map((c) => isPairColumn(pairs(), c, declared))).toEqual([true, false, true, false, false]);
  });
  it('without a declaration, every text column but the side columns', () => {
    expect([0, 1, 2, 3, 4, 5].map((c) => isPairColumn(pairs(), c))).toEqual([true, true, true, false, false, false]);
  });
});

describe('hotspots', () => {
  it('pairs: the share column\'s two sides, labelled by the base key (else the target\'s)', () => {
    expect(hotspots(pairs(), 'Percent', 10)).toEqual([
      { row: 0, label: 'MoEFunctionBackward', base: 27.4, target: 28.6 },
      { row: 1, label: 'MmBackward0', base: 3.0, target: null },
    ]);
  });
  it('side blocks: "Base <share>" and "Target <share>", labelled by the side\'s nearest name column', () => {
    const t = sideBlocks();
    expect(hotspots(t, 'Kernel Time', 10)).toEqual([
      { row: 0, label: 'ring_LL', base: 0.4, target: 0.5 },
      { row: 1, label: 'Idle', base: null, target: 3.6 },
    ]);
    expect(hotspots(t, 'Library Time', 10)).toEqual([]);
  });
  it('follows the given order and stops at the limit', () => {
    expect(hotspots(pairs(), 'Percent', 1, Uint32Array.from([1, 0])).map((h) => h.row)).toEqual([1]);
  });
});

describe('sideNames', () => {
  it('pairs: the Base and Target key cells, null for the side without the row', () => {
    expect(sideNames(pairs(), 0)).toEqual({ base: 'MoEFunctionBackward', target: 'MoEFunctionBackward' });
    expect(sideNames(pairs(), 1)).toEqual({ base: 'MmBackward0', target: null });
  });
  it('side blocks: each side\'s deepest name (its last text column)', () => {
    const t = sideBlocks();
    expect(sideNames(t, 0)).toEqual({ base: 'ring_LL', target: 'ring_LL' });
    expect(sideNames(t, 1)).toEqual({ base: null, target: 'Idle' });
  });
  it('a rule whose rows name no text (a device id) names nothing', () => {
    const t = table([
      { name: 'In-Use', kind: 'text', values: ['40.0 / 50.0'] },
      { name: 'Base Device ID', kind: 'int', values: [0] },
      { name: 'Target Device ID', kind: 'int', values: [0] },
    ]);
    expect(sideNames(t, 0)).toEqual({ base: null, target: null });
  });
});

import { describe, expect, it } from 'vitest';
import { rulesFrom } from './wire_rules';
import { COMPARE_KEY, missingIds, settingsIn, settingsKey, withoutReport, withReset, withSetting, type ReportSettings } from '../../web/src/lib/report_settings';

// Two rules as listRules() declares them (trimmed to their options).
const decls = rulesFrom([
  {
    name: 'hggc_ppu_kern_sum',
    title: 'HGGC PPU Kernel Summary',
    topic: 'HGGC',
    description: '',
    options: [
      { name: 'rows', kind: 'int', placeholder: '<limit>', label: 'Maximum number of results', help: '', defaultValue: '-1', defaultLabel: '-1 (no limit)', choices: [], flags: [] },
      { name: 'device', kind: 'idList', placeholder: '<device_list>', label: 'PPU Devices', help: '', defaultValue: '', defaultLabel: 'All', choices: [], flags: [] },
    ],
    columns: [],
    available: true,
  },
  {
    name: 'hggc_api_sum',
    title: 'HGGC API Summary',
    topic: 'HGGC',
    description: '',
    options: [{ name: 'device', kind: 'idList', placeholder: '<device_list>', label: 'PPU Devices', help: '', defaultValue: '', defaultLabel: 'All', choices: [], flags: [] }],
    columns: [],
    available: true,
  },
]);
const kern = decls[0];
const api = decls[1];
const DEMO = 0;
const KINETO = 1;

describe('per-report settings', () => {
  it('a report never set shows the declared defaults', () => {
    expect(settingsIn({}, DEMO, kern)).toEqual({ rows: '-1', device: '' });
    expect(settingsIn({}, null, kern)).toEqual({ rows: '-1', device: '' });
  });

  it('a setting on one report stays there: the other report keeps its own, switching back restores it', () => {
    let s: ReportSettings = {};
    s = withSetting(s, DEMO, kern, 'device', '2');
    expect(settingsIn(s, DEMO, kern)).toEqual({ rows: '-1', device: '2' });
    // The Kineto trace opened after it: its settings are its own (the defaults).
    expect(settingsIn(s, KINETO, kern)).toEqual({ rows: '-1', device: '' });
    s = withSetting(s, KINETO, kern, 'rows', '5');
    expect(settingsIn(s, KINETO, kern)).toEqual({ rows: '5', device: '' });
    // Back on the demo: device=2 and rows at its default, as left.
    expect(settingsIn(s, DEMO, kern)).toEqual({ rows: '-1', device: '2' });
    // Another rule of the same report is untouched.
    expect(settingsIn(s, DEMO, api)).toEqual({ device: '' });
  });

  it('never changes the store it is given', () => {
    const s: ReportSettings = {};
    const t = withSetting(s, DEMO, kern, 'device', '1');
    expect(s).toEqual({});
    expect(t).toEqual({ 0: { hggc_ppu_kern_sum: { rows: '-1', device: '1' } } });
  });

  it('reset is per report and per rule', () => {
    let s: ReportSettings = {};
    s = withSetting(s, DEMO, kern, 'device', '2');
    s = withSetting(s, DEMO, api, 'device', '3');
    s = withSetting(s, KINETO, kern, 'device', '0');
    s = withReset(s, DEMO, kern);
    expect(settingsIn(s, DEMO, kern)).toEqual({ rows: '-1', device: '' });
    expect(settingsIn(s, DEMO, api)).toEqual({ device: '3' });
    expect(settingsIn(s, KINETO, kern)).toEqual({ rows: '-1', device: '0' });
  });

  it('a closed report takes its settings with it', () => {
    let s: ReportSettings = {};
    s = withSetting(s, DEMO, kern, 'device', '2');
    s = withSetting(s, KINETO, kern, 'device', '0');
    s = withoutReport(s, DEMO);
    expect(settingsIn(s, DEMO, kern)).toEqual({ rows: '-1', device: '' });
    expect(settingsIn(s, KINETO, kern)).toEqual({ rows: '-1', device: '0' });
    expect(withoutReport(s, 7)).toBe(s);
  });
});

describe('compare rules', () => {
  const cmp = { ...kern, name: 'ppu_kernel_summary_compare', compare: true };
  it('live in the compare view, not in its base report: a swap keeps them', () => {
    expect(settingsKey(kern, DEMO)).toBe(DEMO);
    expect(settingsKey(cmp, DEMO)).toBe(COMPARE_KEY);
    expect(settingsKey(cmp, KINETO)).toBe(COMPARE_KEY);
    expect(settingsKey(kern, null)).toBe(null);
    let s: ReportSettings = withSetting({}, settingsKey(cmp, DEMO)!, cmp, 'rows', '3');
    expect(settingsIn(s, settingsKey(cmp, KINETO), cmp)).toEqual({ rows: '3', device: '' });
    // Closing a report never drops them.
    s = withoutReport(s, COMPARE_KEY);
    expect(settingsIn(s, COMPARE_KEY, cmp)).toEqual({ rows: '3', device: '' });
  });
});

describe('ids not in the report', () => {
  it('names the chosen ids the report lacks, ascending, once each', () => {
    // device=2 on a one-GPU trace (device 0).
    expect(missingIds('2', [0])).toEqual([2]);
    expect(missingIds('3/0/2/3', [0, 1])).toEqual([2, 3]);
    expect(missingIds('0,1', [0, 1, 2, 3])).toEqual([]);
  });
  it('says nothing for All, a malformed list or a report with no ids to check against', () => {
    expect(missingIds('', [0])).toEqual([]);
    expect(missingIds('All', [0])).toEqual([]);
    expect(missingIds('2/x', [0])).toEqual([]);
    expect(missingIds('2', [])).toEqual([]);
  });
});

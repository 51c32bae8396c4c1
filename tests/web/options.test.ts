import { describe, expect, it } from 'vitest';
import { normalizeSummary, openedName } from '../../web/src/engine/normalize';
import { rulesFrom, wireSummary } from './wire_rules';
import { buildOptions, cliGlobalOptions, cliSpec, defaultSettings, parseIdList, regexChecks, shellWord } from '../../web/src/lib/options';

// hggc_ppu_kern_sum as listRules() declares it (core/rules/rule_json.cc).
const listRulesJson = [
  {
    name: 'hggc_ppu_kern_sum',
    title: 'HGGC PPU Kernel Summary',
    topic: 'HGGC',
    description: 'Time spent in each HGGC kernel.',
    options: [
      { name: 'rows', kind: 'int', placeholder: '<limit>', label: 'Maximum number of results', help: '', defaultValue: '-1', defaultLabel: '-1 (no limit)', choices: [], flags: [] },
      { name: 'hgtx-name', kind: 'flag', placeholder: '', label: 'Prefix HGTX range name', help: '', defaultValue: '', defaultLabel: '', choices: [], flags: [] },
      {
        name: 'name-mode', kind: 'exclusiveFlags', placeholder: '', label: 'Kernel Name Mode', help: '', defaultValue: '', defaultLabel: 'Demangled', choices: [],
        flags: [
          { name: 'base', label: 'Base', help: '' },
          { name: 'mangled', label: 'Mangled', help: '' },
        ],
      },
      { name: 'device', kind: 'idList', placeholder: '<device_list>', label: 'PPU Devices', help: '', defaultValue: '', defaultLabel: 'All', choices: [], flags: [] },
      { name: 'order', kind: 'choice', placeholder: '', label: 'Order', help: '', defaultValue: 'total', defaultLabel: '', choices: ['total', 'name'], flags: [] },
    ],
    columns: [
      { name: 'Time', unit: '%', kind: 'decimal1', header: 'Time (%)', help: '' },
      { name: 'Name', unit: '', kind: 'text', header: 'Name', help: '' },
    ],
    pie: { valueColumn: 'Total Time', keyColumns: ['Name'] },
    available: false,
    missing: 'This report does not contain HGGC kernel data (table HGGC_KERNEL, collected with --trace hggc).',
  },
];

const rule = () => rulesFrom(listRulesJson)[0];

describe('rule declarations', () => {
  it('normalises kinds, pie and availability', () => {
    const r = rule();
    expect(r.options.map((o) => o.kind)).toEqual(['Int', 'Flag', 'ExclusiveFlags', 'IdList', 'Choice']);
    expect(r.columns.map((c) => c.kind)).toEqual(['Decimal1', 'Text']);
    expect(r.pie).toEqual({ valueColumn: 'Total Time', keyColumns: ['Name'], countRows: false });
    expect(r.available).toBe(false);
    expect(r.missing).toMatch(/HGGC_KERNEL/);
  });

  it('reads an option kind it does not know as free text', () => {
    const [r] = rulesFrom([
      { name: 'x', options: [{ name: 'range', kind: 'regex', placeholder: '<regex_filter>' }], columns: [] },
    ]);
    expect(r.options[0].kind).toBe('Text');
    expect(buildOptions(r, { range: '' }).options).toEqual({});
    expect(buildOptions(r, { range: 'iter [0-9]+' }).options).toEqual({ range: 'iter [0-9]+' });
    expect(cliSpec(r, { range: 'a:b,c' })).toBe('x:range=a\\:b\\,c');
  });

  it('reads regex lists as free text, inverted flags and the command', () => {
    const [r] = rulesFrom([
      {
        name: 'hgtx_kern_sum',
        command: 'stats',
        options: [
          { name: 'range-include', kind: 'regexList', placeholder: '<regex_list>' },
          { name: 'no-graph-mapping', kind: 'flag', label: 'HGTX graph node mapping', inverted: true },
        ],
        columns: [],
      },
      { name: 'ppu_gaps', command: 'analyze', options: [], columns: [] },
    ]);
    expect(r.options.map((o) => o.kind)).toEqual(['Text', 'Flag']);
    expect(r.options.map((o) => o.inverted)).toEqual([false, true]);
    expect(r.command).toBe('stats');
    expect(rulesFrom([{ name: 'ppu_gaps', command: 'analyze', options: [], columns: [] }])[0].command).toBe('analyze');
    // The panel's value for an inverted flag is the flag's own: "1" = no mapping.
    expect(buildOptions(r, { 'no-graph-mapping': '1' }).options).toEqual({ 'no-graph-mapping': '' });
    expect(buildOptions(r, { 'no-graph-mapping': '' }).options).toEqual({});
    expect(cliSpec(r, { 'range-include': 'step$/^in' })).toBe('hgtx_kern_sum:range-include=step$/^in');
  });

  it('reads a pie that counts rows and the selected-row sum columns', () => {
    const [r] = rulesFrom([
      {
        name: 'pccl_desync_trace',
        options: [],
        columns: [],
        pie: { valueColumn: '', keyColumns: ['Last Process', 'Last Device'], countRows: true },
      },
      {
        name: 'pccl_op_sum',
        options: [],
        columns: [],
        pie: { valueColumn: 'Trans Time', keyColumns: ['OP Name'], countRows: false },
        sumColumns: ['Trans Time', 'Total Time', 'Trans Size'],
      },
    ]);
    expect(r.pie).toEqual({ valueColumn: '', keyColumns: ['Last Process', 'Last Device'], countRows: true });
    expect(r.sumColumns).toEqual([]);
    const op = rulesFrom([{ name: 'pccl_op_sum', options: [], columns: [], sumColumns: ['Trans Time', 'Total Time'] }])[0];
    expect(op.sumColumns).toEqual(['Trans Time', 'Total Time']);
    // A pie with neither a value column nor counting is no pie.
    expect(rulesFrom([{ name: 'x', options: [], columns: [], pie: { keyColumns: ['Name'] } }])[0].pie).toBeNull();
  });

  it('counts a rule as available when no report is open (no field)', () => {
    const [r] = rulesFrom([{ name: 'x', options: [], columns: [] }]);
    expect(r.available).toBe(true);
    expect(r.topic).toBe('Other');
  });
});

describe('buildOptions', () => {
  it('sends nothing for the defaults', () => {
    const r = rule();
    expect(defaultSettings(r)).toEqual({ rows: '-1', 'hgtx-name': '', 'name-mode': '', device: '', order: 'total' });
    expect(buildOptions(r, defaultSettings(r))).toEqual({ options: {}, errors: {} });
  });

  it('maps each kind to the engine option object', () => {
    const r = rule();
    const v = { rows: '5', 'hgtx-name': '1', 'name-mode': 'base', device: '0, 1', order: 'name' };
    expect(buildOptions(r, v)).toEqual({
      options: { rows: '5', 'hgtx-name': '', 'name-mode': 'base', device: '0/1', order: 'name' },
      errors: {},
    });
  });

  it('treats an empty rows or -1 as no limit', () => {
    const r = rule();
    expect(buildOptions(r, { ...defaultSettings(r), rows: '' }).options).toEqual({});
    expect(buildOptions(r, { ...defaultSettings(r), rows: '0' }).options).toEqual({ rows: '0' });
  });

  it('reports malformed values instead of sending them', () => {
    const r = rule();
    const b = buildOptions(r, { ...defaultSettings(r), rows: '1.5', device: '0/x' });
    expect(Object.keys(b.errors).sort()).toEqual(['device', 'rows']);
    expect(b.options).toEqual({});
  });

  it('writes the CLI form of the rule', () => {
    const r = rule();
    expect(cliSpec(r, {})).toBe('hggc_ppu_kern_sum');
    expect(cliSpec(r, { 'name-mode': 'base', device: '0/1', 'hgtx-name': '' })).toBe(
      'hggc_ppu_kern_sum:base:device=0/1:hgtx-name',
    );
  });

  it('parses id lists', () => {
    expect(parseIdList('')).toEqual([]);
    expect(parseIdList('All')).toEqual([]);
    expect(parseIdList('0/1/12')).toEqual([0, 1, 12]);
    expect(parseIdList(' 3 , 4 ')).toEqual([3, 4]);
    expect(parseIdList('-1')).toBeNull();
    expect(parseIdList('a')).toBeNull();
  });
});

describe('report summary', () => {
  it('reads the summary JSON, null times and all', () => {
    const s = normalizeSummary(
      {
        path: '/reports/1/demo-base.asysrep',
        hostName: 'golden-host',
        generator: 'asys gen',
        captureStart: 0,
        captureEnd: 15000,
        tables: ['HGGC_API', 'HGGC_KERNEL'],
        devices: [{ id: 0, name: 'PPU-ZW810E', cuCount: 80, busLocation: null, peakFlopsBf16: 9.5e14 }],
        processes: [{ pid: 100, name: 'train.py' }],
        threads: [{ pid: 100, tid: 7, name: 'python' }],
        threadCount: 1,
        meta: [{ name: 'epochOffset', value: '1700000000000000000' }],
      },
      'demo-base.asysrep',
      36864,
    );
    expect(s.hostName).toBe('golden-host');
    expect(s.captureEnd! - s.captureStart!).toBe(15000n); // exact ns (BigInt)
    expect(s.devices).toEqual([
      { id: 0, name: 'PPU-ZW810E', attributes: { cuCount: 80, busLocation: null, peakFlopsBf16: 9.5e14 } },
    ]);
    expect(s.processes).toEqual([{ pid: 100, name: 'train.py' }]);
    expect(s.threads).toEqual([{ pid: 100, tid: 7, name: 'python' }]);
    expect(s.threadCount).toBe(1);
    expect(s.meta).toEqual([['epochOffset', '1700000000000000000']]);
    expect(s.extra).toEqual({});
    const n = normalizeSummary(wireSummary({ captureStart: null, captureEnd: null, build: 'x' }), 'f', 1);
    expect(n.captureStart).toBeNull();
    expect(n.extra).toEqual({ build: 'x' });
    expect(s.name).toBe('demo-base.asysrep');
    expect(s.fileNames).toEqual(['demo-base.asysrep']);
    expect(n.name).toBe('f'); // no path from the engine
  });

  it("names what was opened by the engine's path without directories", () => {
    expect(openedName('/reports/1/demo-base.asysrep', 'x')).toBe('demo-base.asysrep');
    expect(openedName('/reports/4/worker0.pt.trace.json.gz (and 7 more)', 'x')).toBe(
      'worker0.pt.trace.json.gz (and 7 more)',
    );
    expect(openedName('/reports/2/workerfs/big.sqlite', 'x')).toBe('big.sqlite');
    expect(openedName('report1.sqlite', 'x')).toBe('report1.sqlite');
    expect(openedName('', 'a.json.gz (and 1 more)')).toBe('a.json.gz (and 1 more)');
    const s = normalizeSummary(
      wireSummary({ path: '/reports/3/r0.json.gz (and 1 more)', generator: 'asys import (PyTorch/Kineto trace JSON)' }),
      'r0.json.gz',
      300,
      ['r0.json.gz', 'r1.json.gz'],
    );
    expect(s.name).toBe('r0.json.gz (and 1 more)');
    expect(s.fileNames).toEqual(['r0.json.gz', 'r1.json.gz']);
    expect(s.generator).toBe('asys import (PyTorch/Kineto trace JSON)');
  });
});

describe('global options (--callstack-group-config)', () => {
  const [memory] = rulesFrom([
    {
      name: 'device_memory_usage_summary',
      options: [
        {
          name: 'usage-mode', kind: 'choice', placeholder: '<mode>', label: 'Usage Mode', defaultValue: 'unreleased-size',
          choices: ['alloc-size', 'unreleased-size'], choiceLabels: ['Total Alloc Size', 'Unreleased Alloc Size'],
        },
      ],
      globalOptions: [
        { name: 'callstack-group-config', placeholder: 'NAME=FRAME_RE[/FRAME_RE...]', label: 'Group Config', help: 'h',
          defaults: ['acompute=(libacblas|libacdnn)', 'launch_kernel=LaunchKernel'] },
      ],
      columns: [],
    },
  ]);

  it('reads the declarations and the choice labels', () => {
    expect(memory.globalOptions).toEqual([
      { name: 'callstack-group-config', placeholder: 'NAME=FRAME_RE[/FRAME_RE...]', label: 'Group Config', labelZh: 'Group Config', help: 'h',
        helpZh: 'h', defaults: ['acompute=(libacblas|libacdnn)', 'launch_kernel=LaunchKernel'] },
    ]);
    expect(memory.options[0].choiceLabels).toEqual(['Total Alloc Size', 'Unreleased Alloc Size']);
    // Older engines send neither.
    const [old] = rulesFrom([{ name: 'x', options: [{ name: 'm', kind: 'choice', choices: ['a'] }], columns: [] }]);
    expect(old.globalOptions).toEqual([]);
    expect(old.options[0].choiceLabels).toEqual([]);
  });

  it('writes saved entries as the CLI takes them, shell-quoted', () => {
    expect(cliGlobalOptions(memory, {})).toBe('');
    expect(cliGlobalOptions(memory, { 'callstack-group-config': ['loss=loss.py', 'nn=torch\\/nn/x$'] })).toBe(
      " --callstack-group-config loss=loss.py --callstack-group-config 'nn=torch\\/nn/x$'",
    );
    // Options the rule does not read are not shown.
    expect(cliGlobalOptions(memory, { 'ppu-op-config': ['a=kernel:b'] })).toBe('');
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});

describe('regex options', () => {
  // hgtx_kern_sum's range filters (regexList) and ppu_metric_sum's metrics (regex), beside a textList.
  const [r] = rulesFrom([
    {
      name: 'hgtx_kern_sum',
      options: [
        { name: 'range-include', kind: 'regexList', placeholder: '<regex_list>', defaultValue: '' },
        { name: 'metrics', kind: 'regex', placeholder: '<regex_filter>', defaultValue: '' },
        { name: 'op', kind: 'textList', placeholder: '<op_types>', defaultValue: '' },
      ],
      columns: [],
    },
  ]);
  it('are Text fields the engine checks', () => {
    expect(r.options.map((o) => [o.kind, o.regex])).toEqual([
      ['Text', true],
      ['Text', true],
      ['Text', false],
    ]);
  });
  it('are checked when set, as the engine will take them', () => {
    const built = buildOptions(r, { 'range-include': '(x', metrics: '', op: 'GEMM' });
    expect(regexChecks(r, built.options)).toEqual([{ name: 'range-include', value: '(x' }]);
    expect(regexChecks(r, buildOptions(r, {}).options)).toEqual([]);
  });
});

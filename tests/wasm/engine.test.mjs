// The WebAssembly engine under Node gives byte-for-byte the CSV of the native
// CLI for the same report and rule, and its columnar result decodes to the
// same cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const nativeAsys = path.join(root, 'build/native/asys');
const demo = path.join(root, 'public/demo/demo-base.asysrep');

const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')),
});

// Most tests below work on one open report at a time: these wrap the
// handle-based API (version 2) around "the current report".
let current = 0;
function adopt(opened) {
  if (opened.ok) {
    if (current) assert.equal(engine.close(current).ok, true);
    current = opened.report;
  }
  return opened;
}
const openReport = (file) => adopt(engine.open([file]));
const openReports = (files) => adopt(engine.open(files));
const listRules = () => engine.listRules(current).rules;
const setTimeFilter = (filterTime, filterHgtx) => engine.setTimeFilter(current, filterTime, filterHgtx);
const runRule = (rule, options) => engine.run(current, rule, options);
// run + render + release: the rule's text exactly as the CLI writes it.
function renderRule(rule, options, format) {
  const run = runRule(rule, options);
  if (!run.ok) return run;
  const text = engine.render(run.result, format);
  assert.equal(engine.release(run.result).ok, true);
  return text;
}
// An Int column's cells (int64 bytes) as BigInt values.
const ints = (result, col) => new BigInt64Array(result.cells[col].slice().buffer);

// `command`: `stats`, or `analyze` for the expert rules; `global`: the
// global options, name -> values (each one `--name value`).
// A rule's own files (ppu_op_unit_test's Python) go beside the report when
// the table goes to stdout: into a scratch folder here (--output DIR/), so
// the served demo folder stays as built; the table is read back from there.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-wasm-native-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
function nativeCsv(ruleSpec, report, command = 'stats', global = {}) {
  const extra = Object.entries(global).flatMap(([name, values]) => values.flatMap((v) => [`--${name}`, v]));
  const args = [command, '-r', ruleSpec, ...extra, '-f', 'true', '--output', `${scratch}/`, report];
  const r = spawnSync(nativeAsys, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return fs.readFileSync(path.join(scratch, `${ruleSpec.split(':')[0]}.csv`), 'utf8');
}

const invocations = [
  ['hggc_api_sum', {}],
  ['hggc_ppu_kern_sum', {}],
  ['hggc_ppu_kern_sum', { 'name-mode': 'base' }],
  ['hggc_ppu_kern_sum', { 'name-mode': 'mangled', device: '0/1', rows: '5' }],
  ['hggc_ppu_kern_sum', { 'hgtx-name': '' }],
  ['hgtx_sum', {}],
  ['hgtx_sum', { rows: '3' }],
  ['osrt_sum', {}],
  ['ppu_device_attribute', {}],
];

function cliSpec(rule, options) {
  const parts = [rule];
  for (const [k, v] of Object.entries(options)) {
    if (k === 'name-mode') parts.push(v);
    else if (v === '') parts.push(k);
    else parts.push(`${k}=${v}`);
  }
  return parts.join(':');
}

test('opening the demo report returns its summary', () => {
  const opened = openReport(demo);
  assert.equal(opened.ok, true, opened.error);
  assert.ok(opened.summary.tables.includes('HGGC_KERNEL'));
  assert.ok(opened.summary.devices.length >= 1);
});

for (const [rule, options] of invocations) {
  test(`${cliSpec(rule, options)}: WebAssembly CSV equals native CSV`, () => {
    assert.equal(openReport(demo).ok, true);
    const rendered = renderRule(rule, JSON.stringify(options), 'csv');
    assert.equal(rendered.ok, true, rendered.error);
    const expected = nativeCsv(cliSpec(rule, options), demo);
    assert.ok(expected.split('\n').length > 2, 'the demo report gives rows');
    assert.equal(rendered.text, expected);
  });
}

test('every rule with default options: WebAssembly CSV equals native CSV', () => {
  assert.equal(openReport(demo).ok, true);
  const rules = listRules();
  assert.ok(rules.length >= 15);
  for (const rule of rules) {
    if (rule.compare) continue; // two reports: the bridge runs one report today
    assert.equal(rule.available, true, `${rule.name}: ${rule.missing}`);
    const rendered = renderRule(rule.name, '{}', 'csv');
    assert.equal(rendered.ok, true, `${rule.name}: ${rendered.error}`);
    assert.equal(rendered.text, nativeCsv(rule.name, demo, rule.command), rule.name);
  }
});

test('ppu_op_unit_test answers its Python file, the bytes the CLI writes; other rules answer no files', () => {
  assert.equal(openReport(demo).ok, true);
  const run = runRule('ppu_op_unit_test', '{}');
  assert.equal(run.ok, true, run.error);
  assert.equal(run.files.length, 1);
  assert.equal(run.files[0].name, 'ppu_op_unit_test.py');
  nativeCsv('ppu_op_unit_test', demo);
  assert.equal(run.files[0].text, fs.readFileSync(path.join(scratch, 'ppu_op_unit_test.py'), 'utf8'));
  assert.equal(engine.release(run.result).ok, true);
  const other = runRule('ppu_op_sum', '{}');
  assert.deepEqual(other.files, []);
  assert.equal(engine.release(other.result).ok, true);
});

// The hand-made golden fixtures of the HGTX <-> PPU, PCCL and expert rules, built
// with the sqlite3 shell: the WebAssembly engine must equal the CLI on every
// option, as it does on the demo.
function buildFixture(name) {
  const out = path.join(os.tmpdir(), `asys-wasm-${process.pid}-${name.replace('.sql', '')}.asysrep`);
  fs.rmSync(out, { force: true });
  const r = spawnSync('sqlite3', [out], { input: fs.readFileSync(path.join(root, 'tests/golden/fixtures', name)), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return out;
}
const memorySpecs = ['device_memory_usage_summary', 'device_memory_usage_summary:usage-mode=unreleased-count',
  'device_memory_usage_summary:usage-mode=alloc-size', 'device_memory_usage_summary:usage-mode=alloc-count:match-first-group',
  'device_memory_usage_detail', 'device_memory_usage_detail:usage-mode=all',
  'device_memory_usage_detail:usage-mode=all:match-first-group'];
// As tests/golden/cases/mem_summary.case gives them.
const memoryGroups = ['acompute=(libacblas|libacdnn)', 'launch_kernel=libtorch/LaunchKernel', 'loss=loss.py',
  'nn=torch\\/nn\\/modules', 'acompute=pccl::Buffers', 'inverted=LaunchKernel/libtorch'];
const fixtureRuns = [
  ['hgtx_ppu.sql', 'stats', ['hgtx_kern_sum', 'hgtx_kern_sum:standalone', 'hgtx_kern_sum:no-graph-mapping:standalone:base',
    'hgtx_kern_sum:device=1/2:mangled', 'hgtx_kern_sum:range-include=step$/^in:range-exclude=^PCCL',
    'hgtx_kern_trace', 'hgtx_kern_trace:standalone:no-graph-mapping', 'hgtx_ppu_proj_trace',
    'hgtx_ppu_proj_trace:device=0:no-graph-mapping', 'hgtx_ppu_proj_sum', 'hgtx_ppu_proj_sum:range-mode=full',
    'hgtx_ppu_proj_sum:device=0']],
  ['pccl.sql', 'stats', ['pccl_desync_trace', 'pccl_desync_trace:device=0/1/2', 'pccl_desync_trace:mangled:device=3',
    'pccl_desync_summary', 'pccl_desync_summary:hgtx-name:base', 'pccl_op_sum', 'pccl_op_sum:device=0/1',
    'pccl_op_sum:no-graph-mapping', 'pccl_op_sum:range-include=^AllReduce:range-exclude=bbbb']],
  ['pccl_desync_doc.sql', 'stats', ['pccl_desync_trace', 'pccl_desync_summary']],
  ['pccl_op_doc.sql', 'stats', ['pccl_op_sum']],
  ['ppu_idle.sql', 'analyze', ['ppu_gaps:gap=1', 'ppu_gaps:gap=0:rows=5', 'ppu_time_util:chunks=7',
    'ppu_time_util:chunks=7:merge-process-id', 'ppu_time_util:range-mode=full:chunks=2']],
  // The device memory rules: the built-in groups, then the golden cases' groups.
  ['memory_usage.sql', 'stats', memorySpecs],
  ['memory_usage.sql', 'stats', memorySpecs, { 'callstack-group-config': memoryGroups }],
  // The operator rules: every golden case's options (tests/golden/cases/ops_*.case), and the custom rules.
  ['ops_nested.sql', 'stats', ['ppu_op_sum', 'ppu_op_sum:no-merge-pytorch-parameter', 'ppu_op_sum:op=GEMM/others',
    'ppu_op_sum:op=others', 'ppu_op_breakdown', 'ppu_op_breakdown:no-merge-gemm-parameter', 'ppu_op_kernel_breakdown',
    'ppu_op_kernel_breakdown:rows=3:base', 'ppu_op_trace', 'ppu_op_type_sum']],
  ['ops_nested.sql', 'stats', ['ppu_op_sum', 'ppu_op_type_sum', 'ppu_op_kernel_breakdown'],
    { 'ppu-op-config': ['Matmul=hgtx:^aten::mm', 'MyGemm=kernel:^sgemm'] }],
  ['ops_families.sql', 'stats', ['ppu_op_sum', 'ppu_op_sum:no-merge-communication-parameter',
    'ppu_op_sum:no-merge-flash-attention-parameter', 'ppu_op_sum:no-merge-flash-attention-prefill-decode-operator',
    'ppu_op_sum:no-merge-pytorch-parameter', 'ppu_op_sum:parse-from=gemm/pccl', 'ppu_op_type_sum',
    'ppu_op_trace:op=FlashAttention', 'ppu_op_trace:op=FlashAttention:no-merge-flash-attention-prefill-decode-operator']],
  ['ops_moe.sql', 'stats', ['moe_op_sum', 'moe_op_sum:no-merge-moe-parameter', 'ppu_op_sum', 'ppu_op_kernel_breakdown']],
];
// `rule:flag:opt=value` as the panel's options object.
function panelOptions(spec) {
  const [rule, ...items] = spec.split(':');
  const options = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq >= 0) options[item.slice(0, eq)] = item.slice(eq + 1);
    else if (item === 'base' || item === 'mangled') options['name-mode'] = item;
    else options[item] = '';
  }
  return [rule, options];
}
for (const [fixture, command, specs, global = {}] of fixtureRuns) {
  const given = Object.keys(global).length ? ' with global options' : '';
  test(`${fixture}: WebAssembly CSV equals native CSV for each option${given}`, () => {
    const report = buildFixture(fixture);
    try {
      assert.equal(openReport(report).ok, true);
      const set = engine.setRuleConfig(JSON.stringify(global));
      assert.equal(set.ok, true, set.error);
      for (const spec of specs) {
        const [rule, options] = panelOptions(spec);
        const rendered = renderRule(rule, JSON.stringify(options), 'csv');
        assert.equal(rendered.ok, true, `${spec}: ${rendered.error}`);
        const expected = nativeCsv(spec, report, command, global);
        assert.ok(expected.split('\n').length > 2, `${spec} gives rows`);
        assert.equal(rendered.text, expected, spec);
      }
    } finally {
      assert.equal(engine.setRuleConfig('{}').ok, true);
      fs.rmSync(report, { force: true });
    }
  });
}

test('a bad global option value is refused with the CLI\'s line and keeps the configuration', () => {
  const report = buildFixture('memory_usage.sql');
  try {
    assert.equal(openReport(report).ok, true);
    const groups = { 'callstack-group-config': ['loss=loss.py'] };
    assert.equal(engine.setRuleConfig(JSON.stringify(groups)).ok, true);
    const before = renderRule('device_memory_usage_summary', '{"usage-mode":"alloc-size"}', 'csv').text;
    const bad = engine.setRuleConfig(JSON.stringify({ 'callstack-group-config': ['a=libtorch/(x'] }));
    assert.equal(bad.ok, false);
    assert.equal(bad.error, "--callstack-group-config 'a=libtorch/(x': group 'a', frame regex 2: invalid regular expression '(x' at position 2: missing closing parenthesis");
    const after = renderRule('device_memory_usage_summary', '{"usage-mode":"alloc-size"}', 'csv').text;
    assert.equal(after, before);
    assert.match(after, /"loss"/);
    // One entry checked without applying it.
    assert.deepEqual(engine.checkRuleOption('callstack-group-config', 'x=ok'), { ok: true });
    assert.match(engine.checkRuleOption('callstack-group-config', 'nameless').error, /no '='/);
    // The rule list declares the option and its built-in starting list.
    const rules = listRules();
    const summary = rules.find((r) => r.name === 'device_memory_usage_summary');
    assert.equal(summary.globalOptions[0].name, 'callstack-group-config');
    assert.ok(summary.globalOptions[0].defaults.length >= 5);
    assert.deepEqual(summary.options.find((o) => o.name === 'usage-mode').choiceLabels,
      ['Total Alloc Size', 'Unreleased Alloc Size', 'Total Alloc Count', 'Unreleased Alloc Count']);
  } finally {
    assert.equal(engine.setRuleConfig('{}').ok, true);
    fs.rmSync(report, { force: true });
  }
});

test('the operator rules declare their settings as the GUI words them, and --ppu-op-config is the Custom operator parse config', () => {
  const report = buildFixture('ops_nested.sql');
  try {
    assert.equal(openReport(report).ok, true);
    const rules = listRules();
    const sum = rules.find((r) => r.name === 'ppu_op_sum');
    assert.deepEqual(sum.globalOptions.map((g) => [g.name, g.label]), [['ppu-op-config', 'Custom operator parse config']]);
    const option = (name) => sum.options.find((o) => o.name === name);
    assert.equal(option('parse-from').kind, 'choiceList');
    assert.equal(option('parse-from').label, 'Parse from');
    assert.equal(option('parse-from').defaultLabel, 'ALL');
    assert.equal(option('op').kind, 'textList');
    assert.equal(option('rows').label, 'Maximum number of results');
    const merges = sum.options.filter((o) => o.group === 'Merge operator parameters');
    assert.equal(merges.length, 6);
    assert.ok(merges.every((o) => o.kind === 'flag' && o.inverted));
    assert.equal(option('no-graph-mapping').label, 'HGTX graph node mapping');
    assert.deepEqual(sum.sumColumns, ['Total Time', 'Percent']);
    assert.deepEqual(sum.pie.keyColumns, ['OP Type', 'OP Name']);
    const types = rules.find((r) => r.name === 'ppu_op_type_sum');
    assert.equal(types.summaryRow, 'Summary');
    assert.deepEqual(types.sumColumns, ['Total Time', 'Instances', 'PPU Active Time']);
    const trace = rules.find((r) => r.name === 'ppu_op_trace');
    assert.equal(trace.options.find((o) => o.name === 'no-merge-flash-attention-prefill-decode-operator').label,
      'Merge flash attention prefill decode operators');
    const moe = rules.find((r) => r.name === 'moe_op_sum');
    assert.equal(moe.options.find((o) => o.name === 'no-merge-moe-parameter').label, 'Merge MoE parameters');
    assert.deepEqual(moe.globalOptions, []);
    // The custom rules reach the rules through setRuleConfig, and a bad entry is the CLI's line.
    assert.equal(engine.setRuleConfig(JSON.stringify({ 'ppu-op-config': ['MyGemm=kernel:^sgemm'] })).ok, true);
    assert.match(renderRule('ppu_op_sum', '{}', 'csv').text, /"MyGemm",400,/);
    const bad = engine.setRuleConfig(JSON.stringify({ 'ppu-op-config': ['GEMM=kernel:(x'] }));
    assert.equal(bad.error, "--ppu-op-config 'GEMM=kernel:(x': invalid regular expression '(x' at position 2: missing closing parenthesis");
    assert.match(renderRule('ppu_op_sum', '{}', 'csv').text, /"MyGemm"/);  // the config in force stays
    assert.deepEqual(engine.checkRuleOption('ppu-op-config', 'Pytorch=hgtx:aten'), { ok: true });
    assert.match(engine.checkRuleOption('ppu-op-config', 'GEMM=range:x').error, /expected 'kernel:' or 'hgtx:'/);
    // ppu_op_trace rows carry the operator and activity spans.
    const result = runRule('ppu_op_trace', '{}');
    assert.equal(result.ok, true, result.error);
    assert.deepEqual(result.spans.map((s) => s.name), ['PPU Operator', 'Device Activity']);
    assert.equal(engine.release(result.result).ok, true);
  } finally {
    assert.equal(engine.setRuleConfig('{}').ok, true);
    fs.rmSync(report, { force: true });
  }
});

test('device memory detail rows carry the span of the memory held', () => {
  const report = buildFixture('memory_usage.sql');
  try {
    assert.equal(openReport(report).ok, true);
    const result = runRule('device_memory_usage_detail', '{"usage-mode":"all"}');
    assert.equal(result.ok, true, result.error);
    assert.deepEqual(result.spans.map((s) => s.name), ['Memory Held']);
    const view = (bytes) => new BigInt64Array(bytes.slice().buffer);
    const start = view(result.spans[0].start), end = view(result.spans[0].end);
    // Row 1 is ev1, allocated at 100 and freed by ev5 at 500; row 2 ev2, never
    // freed: held to the capture end (2000); row 6 ev6 frees nothing: [600, 600].
    assert.deepEqual([start[0], end[0]], [100n, 500n]);
    assert.deepEqual([start[1], end[1]], [200n, 2000n]);
    assert.deepEqual([start[5], end[5]], [600n, 600n]);
    assert.ok(result.warnings.length === 2);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test('trace rows carry their time spans as exact int64 values', () => {
  const report = buildFixture('hgtx_ppu.sql');
  try {
    assert.equal(openReport(report).ok, true);
    const result = runRule('hgtx_kern_trace', '{}');
    assert.equal(result.ok, true, result.error);
    assert.deepEqual(result.spans.map((s) => s.name), ['HGTX Range', 'Device Activity']);
    const view = (bytes) => new BigInt64Array(bytes.slice().buffer);
    // Row 1 of assoc_kern_trace.case: PCCL:step [1000, 3000) and k8 [1500, 2000).
    assert.deepEqual([view(result.spans[0].start)[0], view(result.spans[0].end)[0]], [1000n, 3000n]);
    assert.deepEqual([view(result.spans[1].start)[0], view(result.spans[1].end)[0]], [1500n, 2000n]);
    assert.equal(view(result.spans[0].start).length, result.rowCount);
    // A summary has none.
    assert.deepEqual(runRule('hgtx_kern_sum', '{}').spans, []);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test('rule declarations carry a row-counting pie and the selected-row sum columns', () => {
  const rules = listRules();
  const trace = rules.find((r) => r.name === 'pccl_desync_trace');
  assert.deepEqual(trace.pie, { valueColumn: '', keyColumns: ['Last Process', 'Last Device'], countRows: true });
  assert.deepEqual(trace.sumColumns, []);
  const op = rules.find((r) => r.name === 'pccl_op_sum');
  assert.deepEqual(op.pie, { valueColumn: 'Trans Time', keyColumns: ['OP Name'], countRows: false });
  assert.deepEqual(op.sumColumns, ['Trans Time', 'Total Time', 'Trans Size']);
});

test('sortOrder orders the last result by a column in the engine', () => {
  assert.equal(openReport(demo).ok, true);
  const result = runRule('hggc_ppu_kern_sum', '{}');
  const instances = result.columns.findIndex((c) => c.name === 'Instances');
  const order = engine.sortOrder(result.result, instances, false).order;
  assert.equal(order.length, result.rowCount);
  const values = Array.from(order, (row) => ints(result, instances)[row]);
  for (let i = 1; i < values.length; ++i) assert.ok(values[i - 1] <= values[i]);
  assert.deepEqual([...order].sort((a, b) => a - b), [...Array(result.rowCount).keys()]);
});

test('a time filter narrows every later run, and a bad one is a clear error', () => {
  assert.equal(openReport(demo).ok, true);
  const all = runRule('hggc_api_trace', '{}').rowCount;
  const set = setTimeFilter('160000000/200000000', '');
  assert.equal(set.ok, true, set.error);
  const some = runRule('hggc_api_trace', '{}').rowCount;
  assert.ok(some > 0 && some < all, `${some} of ${all}`);
  const bad = setTimeFilter('', 'no_such_range');
  assert.equal(bad.ok, false);
  assert.match(bad.error, /no HGTX range named 'no_such_range'/);
  assert.equal(setTimeFilter('', '').ok, true);
  assert.equal(runRule('hggc_api_trace', '{}').rowCount, all);
});

test('the columnar result decodes to the CSV cells', () => {
  assert.equal(openReport(demo).ok, true);
  const result = runRule('hggc_ppu_kern_sum', '{}');
  assert.equal(result.ok, true, result.error);
  const pool = new TextDecoder().decode(result.textPool).split('\0');
  const csvLines = nativeCsv('hggc_ppu_kern_sum', demo).trimEnd().split('\n');
  assert.equal(result.rowCount, csvLines.length - 1);
  const nameCol = result.columns.findIndex((c) => c.name === 'Name');
  const totalCol = result.columns.findIndex((c) => c.name === 'Total Time');
  const firstName = pool[result.cells[nameCol][0]];
  assert.ok(csvLines[1].endsWith(`"${firstName.replaceAll('"', '""')}",`));
  assert.equal(String(ints(result, totalCol)[0]), csvLines[1].split(',')[2]);
});

test('a file that is not a report gives one clear line', () => {
  const bogus = path.join(os.tmpdir(), `asys-not-a-report-${process.pid}.txt`);
  fs.writeFileSync(bogus, 'hello, I am text\n');
  const opened = openReport(bogus);
  fs.unlinkSync(bogus);
  assert.equal(opened.ok, false);
  assert.match(opened.error, /not a report asys can read/);
  assert.ok(!opened.error.includes('\n'));
});

test('a bad option is an error naming the option, not a crash', () => {
  assert.equal(openReport(demo).ok, true);
  const result = runRule('hggc_ppu_kern_sum', JSON.stringify({ device: 'x' }));
  assert.equal(result.ok, false);
  assert.match(result.error, /device/);
});

// Foreign profiles: the same import and rule in WebAssembly as natively.
const realData = process.env.E2E_REAL_DATA ?? path.join(root, '../shared/data/real'); // as tests/e2e/helpers.ts
const foreign = [
  'nsys-sqlite/fuser/report1.sqlite',
  'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz',
];
for (const file of foreign) {
  test(`${file}: imported in WebAssembly, hggc_ppu_kern_sum equals native`, (t) => {
    const input = path.join(realData, file);
    if (!fs.existsSync(input)) return t.skip(`real data not present: ${input}`);
    const opened = openReport(input);
    assert.equal(opened.ok, true, opened.error);
    const rendered = renderRule('hggc_ppu_kern_sum', '{}', 'csv');
    assert.equal(rendered.ok, true, rendered.error);
    assert.ok(rendered.text.split('\n').length > 3);
    assert.equal(rendered.text, nativeCsv('hggc_ppu_kern_sum', input));
  });
}

test('a Kineto trace\'s capture start (epoch ns, past 2^53) reaches the page exactly, as a BigInt', (t) => {
  const input = path.join(realData, 'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
  if (!fs.existsSync(input)) return t.skip(`real data not present: ${input}`);
  // The reference: the CLI's import, its META_DATA read with sqlite3 (text, so no rounding on the way).
  const imported = path.join(scratch, 'alexnet.asysrep');
  const r = spawnSync(nativeAsys, ['import', input, '-o', imported], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const meta = (name) =>
    spawnSync('sqlite3', [imported, `SELECT value FROM META_DATA WHERE name = '${name}'`], { encoding: 'utf8' }).stdout.trim();
  const start = BigInt(meta('captureStart'));
  assert.ok(start > BigInt(Number.MAX_SAFE_INTEGER), `captureStart ${start} is epoch ns`);
  const opened = openReport(input);
  assert.equal(opened.ok, true, opened.error);
  assert.equal(typeof opened.summary.captureStart, 'bigint');
  assert.equal(opened.summary.captureStart, start);
  assert.equal(opened.summary.captureEnd, BigInt(meta('captureEnd')));
});

test("the summary's device attributes, named threads and META_DATA equal the report's tables (read by sqlite3)", () => {
  const opened = openReport(demo);
  assert.equal(opened.ok, true, opened.error);
  const sql = (q) =>
    spawnSync('sqlite3', ['-separator', '|', demo, q], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  const s = opened.summary;
  // TARGET_INFO_PPU, every column, NULL as null (reals as sqlite3 prints them, compared as numbers).
  const cols = ['id', 'name', 'busLocation', 'hostName', 'uuid', 'computeMajor', 'computeMinor', 'ceCount', 'cuCount',
    'totalMemory', 'cuClock', 'memoryClock', 'peakFlopsFp32', 'peakFlopsFp16', 'peakFlopsBf16', 'peakFlopsFp8',
    'peakFlopsInt8', 'hbmBandwidth'];
  const rows = sql(`SELECT ${cols.map((c) => `quote(${c})`).join(', ')} FROM TARGET_INFO_PPU ORDER BY id`);
  assert.equal(s.devices.length, rows.length);
  rows.forEach((row, i) => {
    const cells = row.split('|');
    cols.forEach((c, j) => {
      const v = cells[j];
      const text = ['name', 'busLocation', 'hostName', 'uuid'].includes(c);
      // A NULL text is "", a NULL (or zero) real null: the engine's unknowns.
      const expected = v === 'NULL' ? (text ? '' : null) : text ? v.slice(1, -1) : Number(v) === 0 && (c.startsWith('peak') || c === 'hbmBandwidth') ? null : Number(v);
      assert.deepEqual(s.devices[i][c], expected, `device ${i} ${c}`);
    });
  });
  const threads = sql('SELECT globalTid, (SELECT value FROM StringIds WHERE id = nameId) FROM ThreadNames ORDER BY globalTid');
  assert.ok(threads.length > 0, 'the demo names its threads');
  assert.equal(s.threadCount, Number(sql('SELECT count(DISTINCT globalTid) FROM ThreadNames')[0]));
  assert.deepEqual(
    s.threads.map((t) => `${t.pid}/${t.tid}/${t.name}`),
    threads.map((r) => {
      const [g, name] = r.split('|');
      return `${(BigInt(g) >> 24n) & 0xffffffn}/${BigInt(g) & 0xffffffn}/${name}`;
    }),
  );
  const known = new Set(['format', 'formatVersion', 'hostName', 'generator', 'captureStart', 'captureEnd']);
  const meta = sql('SELECT name, value FROM META_DATA').map((r) => r.split('|')).filter(([n]) => !known.has(n));
  assert.deepEqual(s.meta.map((m) => [m.name, m.value]), meta);
});

test('the demo\'s capture start, 0, is 0n (a BigInt, not a number)', () => {
  const opened = openReport(demo);
  assert.equal(opened.ok, true, opened.error);
  assert.equal(opened.summary.captureStart, 0n);
});

test('several Kineto rank files open as one report', (t) => {
  const dir = path.join(realData, 'kineto/param/dlrm_kineto');
  if (!fs.existsSync(dir)) return t.skip(`real data not present: ${dir}`);
  const ranks = fs.readdirSync(dir).filter((f) => f.endsWith('.json.gz')).map((f) => path.join(dir, f));
  const opened = openReports(ranks);
  assert.equal(opened.ok, true, opened.error);
  assert.equal(opened.summary.processes.length, ranks.length);
});

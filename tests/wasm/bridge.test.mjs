// The WebAssembly bridge, version 3: handles for reports and results, one
// envelope for every answer, several reports open at once with their own
// time ranges, compare rules on two reports, results sorted, paged, rendered
// and released by id, and 64-bit values exact past 2^53.
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
const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')),
});
const nativeAsys = path.join(root, 'build/native/asys');

function native(args) {
  const r = spawnSync(nativeAsys, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

// A golden fixture built with the sqlite3 shell, with extra statements.
function fixture(name, extraSql = '') {
  const out = path.join(os.tmpdir(), `asys-bridge-${process.pid}-${Math.random().toString(36).slice(2)}.asysrep`);
  const sql = fs.readFileSync(path.join(root, 'tests/golden/fixtures', name), 'utf8') + '\n' + extraSql;
  const r = spawnSync('sqlite3', [out], { input: sql, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return out;
}

function text(result, format = 'csv') {
  const r = engine.render(result, format);
  assert.equal(r.ok, true, r.error);
  return r.text;
}

test('the API version is 3, and every answer is an envelope', () => {
  assert.equal(engine.apiVersion(), 10);
  for (const answer of [engine.close(999), engine.run(999, 'hggc_api_sum', '{}'), engine.render(999, 'csv'),
                        engine.sortOrder(999, 0, false), engine.release(999), engine.page(999, 0, 10),
                        engine.renderCsvRows(999, 0, 10)]) {
    assert.equal(answer.ok, false);
    assert.match(answer.error, /no (open report|result) with id 999/);
  }
  assert.equal(engine.listRules(0).ok, true);
});

test('two reports open at once keep their own time ranges and tables', () => {
  const base = fixture('cmp_base.sql'), target = fixture('cmp_target.sql');
  try {
    const a = engine.open([base]), b = engine.open([target]);
    assert.equal(a.ok && b.ok, true);
    assert.notEqual(a.report, b.report);
    // --filter-time 0/1500 on the base only: the target keeps its whole capture.
    const set = engine.setTimeFilter(a.report, '0/1500', '');
    assert.equal(set.ok, true);
    assert.deepEqual(set.window, [0n, 1500n]);
    const ra = engine.run(a.report, 'hggc_ppu_kern_sum', '{}'), rb = engine.run(b.report, 'hggc_ppu_kern_sum', '{}');
    assert.equal(text(ra.result), native(['stats', '-r', 'hggc_ppu_kern_sum', '--filter-time', '0/1500', base]));
    assert.equal(text(rb.result), native(['stats', '-r', 'hggc_ppu_kern_sum', target]));
    // The compare rule runs each report in its own range.
    const cmp = engine.runCompare(a.report, b.report, 'ppu_kernel_summary_compare', '{}');
    assert.equal(cmp.ok, true, cmp.error);
    const wholeTarget = native(['stats', '-r', 'ppu_kernel_summary_compare', base, target]);
    assert.notEqual(text(cmp.result), wholeTarget);
    assert.match(text(cmp.result), /"2 \/ 2","100.0 \/ 30.0"/); // base gemm 2 of 300 ns only, target all
    for (const r of [ra, rb, cmp]) assert.equal(engine.release(r.result).ok, true);
    assert.equal(engine.render(ra.result, 'csv').ok, false); // released
    assert.equal(engine.close(a.report).ok, true);
    assert.equal(engine.run(a.report, 'hggc_ppu_kern_sum', '{}').ok, false); // closed
    assert.equal(engine.run(b.report, 'hggc_ppu_kern_sum', '{}').ok, true); // the other is untouched
    assert.equal(engine.close(b.report).ok, true);
  } finally {
    fs.rmSync(base, { force: true });
    fs.rmSync(target, { force: true });
  }
});

// Every compare rule on the golden pairs, as the CLI writes it.
const comparePairs = [
  ['cmp_base.sql', 'cmp_target.sql', '', ['ppu_kernel_summary_compare', 'ppu_time_util_compare']],
  ['hgtx_ppu.sql', 'hgtx_ppu.sql',
   "UPDATE HGGC_KERNEL SET end = 4500 WHERE rowid = 1; DELETE FROM HGTX_EVENTS WHERE rowid = 13; UPDATE HGTX_EVENTS SET text = 'capture2' WHERE rowid = 7;",
   ['hgtx_ppu_projection_summary_compare']],
  ['pccl.sql', 'pccl.sql', 'DELETE FROM HGGC_KERNEL WHERE rowid = 12;', ['pccl_desync_summary_compare']],
];
for (const [baseSql, targetSql, targetEdit, rules] of comparePairs) {
  test(`${baseSql} / ${targetSql}: compare rules in WebAssembly equal the CLI`, () => {
    const base = fixture(baseSql), target = fixture(targetSql, targetEdit);
    try {
      const a = engine.open([base]), b = engine.open([target]);
      for (const rule of rules) {
        for (const options of [{}, { 'matched-only': '' }]) {
          const r = engine.runCompare(a.report, b.report, rule, JSON.stringify(options));
          assert.equal(r.ok, true, `${rule}: ${r.error}`);
          const spec = Object.keys(options).length ? `${rule}:matched-only` : rule;
          const expected = native(['stats', '-r', spec, base, target]);
          assert.ok(expected.split('\n').length > 2, spec);
          assert.equal(text(r.result), expected, spec);
          engine.release(r.result);
        }
      }
      // A compare rule on one report, or a one-report rule on two: one line.
      assert.match(engine.run(a.report, rules[0], '{}').error, /compares two reports/);
      assert.match(engine.runCompare(a.report, b.report, 'hggc_ppu_kern_sum', '{}').error, /reads one report/);
      engine.close(a.report);
      engine.close(b.report);
    } finally {
      fs.rmSync(base, { force: true });
      fs.rmSync(target, { force: true });
    }
  });
}

test('integer cells, spans and windows are exact beyond 2^53', () => {
  // edge.sql's calls start at 1700000000000000000 + 10000 i: a double has a
  // 256 ns step there.
  const report = fixture('edge.sql');
  try {
    const r = engine.open([report]);
    const run = engine.run(r.report, 'hggc_api_trace', '{}');
    assert.equal(run.ok, true, run.error);
    const start = run.columns.findIndex((c) => c.name === 'Start');
    const cells = new BigInt64Array(run.cells[start].slice().buffer);
    const csv = native(['stats', '-r', 'hggc_api_trace', report]).trimEnd().split('\n').slice(1);
    assert.equal(cells.length, csv.length);
    for (let i = 0; i < csv.length; i += 97) assert.equal(String(cells[i]), csv[i].split(',')[1]);
    assert.ok(cells.some((v) => v % 256n !== 0n), 'values a double could not hold');
    const set = engine.setTimeFilter(r.report, '1700000000000000001/1700000000000009999', '');
    assert.deepEqual(set.window, [1700000000000000001n, 1700000000000009999n]);
    engine.release(run.result);
    engine.close(r.report);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test('a result pages by offset and count, and sorts in the engine', () => {
  const report = fixture('hgtx_ppu.sql');
  try {
    const r = engine.open([report]);
    const run = engine.run(r.report, 'hgtx_kern_trace', '{}');
    assert.equal(run.rowCount, 21);
    const page = engine.page(run.result, 19, 10);
    assert.equal(page.ok, true, page.error);
    assert.equal(page.offset, 19);
    assert.equal(page.rowCount, 2); // rows 20 and 21 of assoc_kern_trace.case
    const kstart = page.columns.findIndex((c) => c.name === 'Kernel Start');
    assert.deepEqual([...new BigInt64Array(page.cells[kstart].slice().buffer)], [13500n, 13500n]);
    const sorted = engine.sortOrder(run.result, kstart, true);
    assert.equal(sorted.ok, true);
    const all = new BigInt64Array(run.cells[kstart].slice().buffer);
    assert.equal(all[sorted.order[0]], 13500n);
    assert.match(engine.sortOrder(run.result, 99, true).error, /no column 99/);
    engine.release(run.result);
    engine.close(r.report);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test("checkOption answers the CLI's error for one rule option, without running the rule", () => {
  const demo = path.join(root, 'public/demo/demo-base.asysrep');
  const cliError = (spec) => {
    const r = spawnSync(nativeAsys, ['stats', '-r', spec, demo], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    return r.stderr.trim().replace(/^asys stats: /, '');
  };
  const bad = engine.checkOption('hgtx_kern_sum', 'range-include', '(x');
  assert.equal(bad.ok, false);
  assert.equal(bad.error, cliError('hgtx_kern_sum:range-include=(x'));
  assert.match(bad.error, /position 2/);
  // The second regex of a list, and a regex option of another rule.
  assert.equal(engine.checkOption('hgtx_kern_sum', 'range-exclude', 'ok/[a').error, cliError('hgtx_kern_sum:range-exclude=ok/[a'));
  assert.equal(engine.checkOption('hgtx_pushpop_trace', 'range', 'a)').error, cliError('hgtx_pushpop_trace:range=a)'));
  assert.deepEqual(engine.checkOption('hgtx_kern_sum', 'range-include', '^fwd/PCCL'), { ok: true });
  assert.deepEqual(engine.checkOption('hgtx_kern_sum', 'range-include', ''), { ok: true });
  // Not only regexes: the same parser checks every kind.
  assert.equal(engine.checkOption('hggc_ppu_kern_sum', 'rows', 'x').error, cliError('hggc_ppu_kern_sum:rows=x'));
  assert.match(engine.checkOption('no_such_rule', 'rows', '1').error, /unknown rule 'no_such_rule'/);
});

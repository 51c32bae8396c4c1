// Results that are views (docs/result-views.md) through the bridge: the
// answer of `run` is streamed a chunk at a time and holds the rows the CLI
// writes; a page, a sort and a CSV exported in parts are those of the whole
// result, also after the timeline released the report's tables; a view goes
// with its report when the report is closed.
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

// A generated report of about 140,000 kernels: more than one of a view's
// 65,536-row chunks for each trace, so the answer is made of several.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-views-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const report = path.join(dir, 'views.asysrep');
{
  const r = spawnSync(nativeAsys, ['gen', '--seed', '5', '--scale', '35', '-o', report], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

function native(rule) {
  const r = spawnSync(nativeAsys, ['stats', '-r', rule, report], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

// The CSV's cells, row by row, without the header and Row#.
const csvRows = (csv) => csv.trimEnd().split('\n').slice(1).map((line) => line.slice(line.indexOf(',') + 1));

// A result row as the CSV writes its cells (int64 cells from their bytes,
// text through the pool), for comparing with the CLI's lines.
function rowCells(answer, pool, r) {
  return answer.columns
    .map((c, i) => {
      const cells = answer.cells[i];
      if (c.kind === 'int') {
        const v = new BigInt64Array(cells.slice(8 * r, 8 * r + 8).buffer)[0];
        return v === -(2n ** 63n) ? '"-"' : String(v);
      }
      if (c.kind === 'text') return cells[r] === 0xffffffff ? '"-"' : `"${pool[cells[r]].replaceAll('"', '""')}"`;
      return Number.isNaN(cells[r]) ? '"-"' : cells[r].toFixed(1);
    })
    .join(',') + ',';
}

const poolOf = (answer) => new TextDecoder().decode(answer.textPool).split('\0');

for (const rule of ['hggc_ppu_trace', 'hggc_ppu_kern_gb_trace', 'hggc_api_trace', 'hggc_kern_exec_trace',
                    'ppu_metric_trace', 'hgtx_pushpop_trace']) {
  test(`${rule}: the streamed answer, a page, the parts of its CSV and a sort are the whole result's`, () => {
    const opened = engine.open([report]);
    assert.equal(opened.ok, true, opened.error);
    const run = engine.run(opened.report, rule, '{}');
    assert.equal(run.ok, true, run.error);
    const expected = native(rule);
    const lines = csvRows(expected);
    assert.ok(lines.length > 65536 + 20, `${lines.length} rows`);
    assert.equal(Number(run.rowCount), lines.length);
    const pool = poolOf(run);
    for (const r of [0, 1, 65535, 65536, 65537, lines.length - 1]) assert.equal(rowCells(run, pool, r), lines[r], `row ${r}`);

    // A page across a chunk's end: its text cells index the pool `run` sent.
    const page = engine.page(run.result, 65530, 20);
    assert.equal(page.ok, true, page.error);
    assert.equal(Number(page.offset), 65530);
    for (let r = 0; r < 20; r++) assert.equal(rowCells(page, pool, r), lines[65530 + r], `page row ${r}`);

    // The CSV in parts of 50,000 rows, joined: the CLI's bytes.
    const joinedCsv = () => {
      const parts = [];
      for (let first = 0; first === 0 || first < lines.length; first += 50000) {
        const part = engine.renderCsvRows(run.result, first, 50000);
        assert.equal(part.ok, true, part.error);
        parts.push(Buffer.from(part.bytes));
      }
      return Buffer.concat(parts).toString('utf8');
    };
    assert.equal(joinedCsv(), expected);

    // The timeline gives back the report's tables once its tracks hold
    // them: the view, which the viewer still pages, answers the same.
    assert.equal(engine.timelineTracks(opened.report).ok, true);
    const again = engine.page(run.result, 65530, 20);
    assert.equal(again.ok, true, again.error);
    for (let r = 0; r < 20; r++) assert.equal(rowCells(again, pool, r), lines[65530 + r], `page row ${r} after the timeline`);
    assert.equal(joinedCsv(), expected);

    // Sorted by Duration (column 1), descending, in the engine: stable, "-" last.
    const sorted = engine.sortOrder(run.result, 1, true);
    assert.equal(sorted.ok, true, sorted.error);
    const durations = new BigInt64Array(run.cells[1].slice().buffer);
    const missing = -(2n ** 63n);
    const order = Array.from({ length: lines.length }, (_, i) => i).sort((a, b) => {
      const x = durations[a], y = durations[b];
      if (x === missing || y === missing) return (x === missing) - (y === missing);
      return x === y ? a - b : x > y ? -1 : 1;
    });
    assert.deepEqual(Array.from(sorted.order), order);

    // The view reads its report: closing the report takes the view with it.
    assert.equal(engine.close(opened.report).ok, true);
    const after = engine.page(run.result, 0, 1);
    assert.equal(after.ok, false);
    assert.match(after.error, /no result with id \d+ \(released, or its report closed\?\)/);
  });
}

test('a held result outlives its report; renderCsvRows names a bad result in one line', () => {
  const opened = engine.open([report]);
  const run = engine.run(opened.report, 'hggc_ppu_kern_sum', '{}');
  assert.equal(run.ok, true, run.error);
  assert.equal(engine.close(opened.report).ok, true);
  const part = engine.renderCsvRows(run.result, 0, 3);
  assert.equal(part.ok, true, part.error);
  assert.deepEqual(Buffer.from(part.bytes).toString('utf8').split('\n').slice(0, 4), native('hggc_ppu_kern_sum').split('\n').slice(0, 4));
  assert.equal(engine.release(run.result).ok, true);
  const gone = engine.renderCsvRows(run.result, 0, 3);
  assert.equal(gone.ok, false);
  assert.match(gone.error, /no result with id/);
});

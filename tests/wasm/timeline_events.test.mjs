// Trace rows and timeline events linked by identity through the bridge, on
// the demo report, against the native CLI: each sampled trace row's event
// (timelineFindEvent) starts and ends where the CLI's CSV row says, the
// event's own table row leads back (timelineEventRow), and the result finds
// that row again (resultRowOfEvent). Bad names and rows are one-line errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { parseCsv } from '../csv.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const engine = await createAsysEngine({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')) });
const demo = path.join(root, 'public/demo/demo-base.asysrep');
const TABLES = ['none', 'kernel', 'memcpy', 'memset', 'api', 'hgtx'];

function cliRows(rule) {
  const cli = spawnSync(path.join(root, 'build/native/asys'), ['stats', '-r', rule, '--format', 'csv', demo], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(cli.status, 0, cli.stderr);
  const [header, ...rows] = parseCsv(cli.stdout);
  return { at: (name) => header.indexOf(name), rows };
}

// Per rule and event: the CSV columns of the event's start and its duration
// (or end), as the rule documents them.
const CASES = [
  { rule: 'hggc_ppu_trace', event: 'Activity', start: 'Start (ns)', duration: 'Duration (ns)' },
  { rule: 'hggc_api_trace', event: 'API Call', start: 'Start (ns)', duration: 'Duration (ns)' },
  { rule: 'hggc_kern_exec_trace', event: 'API Call', start: 'API Start (ns)', duration: 'API Dur (ns)' },
  { rule: 'hggc_kern_exec_trace', event: 'Kernel', start: 'Kernel Start (ns)', duration: 'Kernel Dur (ns)' },
  { rule: 'hggc_ppu_kern_gb_trace', event: 'Kernel', start: 'Start (ns)', duration: 'Duration (ns)' },
  { rule: 'hgtx_pushpop_trace', event: 'HGTX Range', start: 'Start (ns)', end: 'End (ns)' },
];

const opened = engine.open([demo]);
assert.equal(opened.ok, true, opened.error);
const report = opened.report;

for (const c of CASES) {
  test(`${c.rule}: a row's ${c.event} is the timeline event the CLI's row places, and leads back to the row`, () => {
    const { at, rows } = cliRows(c.rule);
    assert.ok(at(c.start) >= 0 && at(c.duration ?? c.end) >= 0, `columns of ${c.rule}`);
    const run = engine.run(report, c.rule, '{}');
    assert.equal(run.ok, true, run.error);
    assert.equal(run.rowCount, rows.length);
    const slot = run.events.findIndex((e) => e.name === c.event);
    assert.ok(slot >= 0, `${c.rule} declares ${c.event}: ${run.events.map((e) => e.name)}`);
    const { table, index } = run.events[slot];
    assert.equal(table.length, rows.length);
    const step = Math.max(1, Math.floor(rows.length / 60));
    let checked = 0;
    for (let r = 0; r < rows.length; r += step) {
      const name = TABLES[table[r]];
      assert.notEqual(name, 'none', `row ${r} has its event`);
      const found = engine.timelineFindEvent(report, name, index[r]);
      assert.equal(found.ok, true, found.error);
      assert.ok(found.event, `row ${r}'s ${name} ${index[r]} is on the timeline`);
      const row = rows[r];
      assert.equal(String(found.event.start), row[at(c.start)], `row ${r} start`);
      const length = c.end ? BigInt(row[at(c.end)]) - BigInt(row[at(c.start)]) : BigInt(row[at(c.duration)]);
      assert.equal(found.event.end - found.event.start, length, `row ${r} length`);
      const back = engine.timelineEventRow(report, found.event.track, found.event.event);
      assert.deepEqual([back.table, back.index], [name, index[r]]);
      // The first row standing for the event: this one, or an earlier row of the same event
      // (hggc_kern_exec_trace lists a graph launch's call once per kernel).
      const again = engine.resultRowOfEvent(run.result, name, index[r]);
      assert.equal(again.ok, true, again.error);
      assert.ok(again.row !== null && again.row <= r, `row ${r} found at ${again.row}`);
      if (c.event !== 'API Call' || c.rule === 'hggc_api_trace') assert.equal(again.row, r);
      checked++;
    }
    assert.ok(checked >= Math.min(rows.length, 50), `${checked} rows checked`);
    engine.release(run.result);
  });
}

test('a paged trace finds its rows in the engine; a row outside the statistics range is none', () => {
  const info = engine.timelineTracks(report);
  const run = engine.runPaged(report, 'hggc_ppu_trace', '{}', 10);
  assert.equal(run.ok, true, run.error);
  assert.equal(run.paged, true);
  assert.deepEqual(run.eventNames, ['Activity']);
  const page = engine.pageRows(run.result, Uint32Array.of(run.rowCount - 1, 3));
  assert.equal(page.ok, true, page.error);
  const [last, third] = [0, 1].map((i) => ({ table: TABLES[page.events[0].table[i]], index: page.events[0].index[i] }));
  assert.equal(engine.resultRowOfEvent(run.result, last.table, last.index).row, run.rowCount - 1);
  assert.equal(engine.resultRowOfEvent(run.result, third.table, third.index).row, 3);
  // A statistics range over the first half of the capture up to the last row's event leaves that event out.
  const event = engine.timelineFindEvent(report, last.table, last.index).event;
  assert.ok(event);
  engine.release(run.result);
  const half = (event.start - info.captureStart) / 2n;
  assert.equal(engine.setTimeFilter(report, `0/${half}`, '').ok, true);
  const narrow = engine.run(report, 'hggc_ppu_trace', '{}');
  assert.ok(narrow.rowCount > 0 && narrow.rowCount < run.rowCount);
  assert.equal(engine.resultRowOfEvent(narrow.result, last.table, last.index).row, null);
  engine.release(narrow.result);
  assert.equal(engine.setTimeFilter(report, '', '').ok, true);
});

test('bad table names and rows are one-line errors; an event of no table is "none"', () => {
  assert.equal(engine.timelineFindEvent(report, 'kernels', 0).error, "no event table 'kernels' (kernel, memcpy, memset, api, hgtx)");
  assert.equal(engine.timelineFindEvent(report, 'none', 0).error, "no event table 'none' (kernel, memcpy, memset, api, hgtx)");
  assert.equal(engine.timelineFindEvent(report, 'kernel', -1).error, 'no event row -1');
  assert.equal(engine.timelineFindEvent(report, 'kernel', 1.5).error, 'no event row 1.5');
  assert.equal(engine.timelineFindEvent(report, 'kernel', 4e9).event, null);
  assert.match(engine.resultRowOfEvent(987654, 'kernel', 0).error, /result/);
  assert.equal(engine.timelineEventRow(report, 0, -1).error, 'timeline: track 0 has no event -1');
  const info = engine.timelineTracks(report);
  const osrt = info.tracks.find((t) => t.label.endsWith('OSRT'));
  if (osrt) assert.deepEqual([engine.timelineEventRow(report, osrt.id, 0).table, engine.timelineEventRow(report, osrt.id, 0).index], ['none', null]);
});

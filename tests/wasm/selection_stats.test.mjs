// A drag selection's statistics through the bridge (timelineSelection) on
// the demo report, against the same computation run natively
// (build/native/tests/asys_selection_stats, core/timeline/selection_stats.h):
// each PPU's active, idle, kernel and memory ns and percentages, and the
// grouped table's CSV byte for byte; its kernel rows against the CLI's
// hggc_ppu_kern_sum over the same --filter-time window (an independent
// grouping of HGGC_KERNEL); a paged answer; an empty window's one-line error.
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

const opened = engine.open([demo]);
assert.equal(opened.ok, true, opened.error);
const report = opened.report;
const tracks = engine.timelineTracks(report);
assert.equal(tracks.ok, true, tracks.error);
// A window from 30 % to 45 % of the events' extent: kernels cross both edges.
const span = tracks.last - tracks.first;
const from = tracks.first + (span * 30n) / 100n;
const to = tracks.first + (span * 45n) / 100n;

function native(a, b) {
  const r = spawnSync(path.join(root, 'build/native/tests/asys_selection_stats'), [demo, String(a), String(b)], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, r.stderr);
  const nl = r.stdout.indexOf('\n');
  return { stats: JSON.parse(r.stdout.slice(0, nl)), csv: r.stdout.slice(nl + 1) };
}

function csvOf(result) {
  const r = engine.render(result, 'csv');
  assert.equal(r.ok, true, r.error);
  return r.text;
}

test('the bridge answers what the native computation gives for a window of the demo report', () => {
  const sel = engine.timelineSelection(report, String(from), String(to), Infinity);
  assert.equal(sel.ok, true, sel.error);
  assert.equal(sel.paged, false);
  const n = native(from, to);
  assert.equal(sel.selection.from, from);
  assert.equal(sel.selection.to, to);
  assert.equal(sel.selection.length, to - from);
  assert.ok(n.stats.devices.length >= 2, 'the demo report has several PPUs');
  assert.equal(sel.selection.devices.length, n.stats.devices.length);
  sel.selection.devices.forEach((d, i) => {
    const e = n.stats.devices[i];
    assert.equal(d.device, e.device);
    assert.equal(d.name, e.name);
    for (const k of ['active', 'idle', 'kernel', 'memory']) assert.equal(d[k], BigInt(e[k]), `${d.name} ${k}`);
    for (const k of ['activePercent', 'idlePercent', 'kernelPercent', 'memoryPercent']) assert.equal(d[k].toFixed(1), e[k], `${d.name} ${k}`);
    assert.equal(d.active + d.idle, to - from);
    assert.ok(d.kernel <= d.active && d.memory <= d.active);
  });
  assert.ok(sel.selection.devices.some((d) => d.active > 0n), 'something runs in the window');
  assert.equal(csvOf(sel.result), n.csv);
  assert.ok(sel.rowCount > 0);
  // Exported as a workbook like any result (a zip: "PK").
  const xlsx = engine.renderXlsx(sel.result, 'timeline_selection');
  assert.equal(xlsx.ok, true, xlsx.error);
  assert.deepEqual([...xlsx.bytes.slice(0, 2)], [0x50, 0x4b]);
  engine.release(sel.result);
});

test('its kernel rows are hggc_ppu_kern_sum over the same --filter-time window', () => {
  const sel = engine.timelineSelection(report, String(from), String(to), Infinity);
  assert.equal(sel.ok, true, sel.error);
  const [header, ...rows] = parseCsv(csvOf(sel.result));
  const at = (name) => header.indexOf(name);
  const kernels = new Map(
    rows.filter((r) => r[at('Kind')] === 'Kernel').map((r) => [r[at('Name')], { count: r[at('Count')], total: r[at('Total Time (ns)')] }]),
  );
  engine.release(sel.result);
  const zero = tracks.captureStart ?? 0n;
  const cli = spawnSync(
    path.join(root, 'build/native/asys'),
    ['stats', '-r', 'hggc_ppu_kern_sum', '--filter-time', `${from - zero}/${to - zero}`, '--format', 'csv', demo],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  assert.equal(cli.status, 0, cli.stderr);
  const [h, ...sum] = parseCsv(cli.stdout);
  const expected = new Map(sum.map((r) => [r[h.indexOf('Name')], { count: r[h.indexOf('Instances')], total: r[h.indexOf('Total Time (ns)')] }]));
  assert.ok(expected.size > 0);
  assert.deepEqual(kernels, expected);
});

test('a large grouped table is answered paged, and an empty window is a one-line error', () => {
  const sel = engine.timelineSelection(report, String(tracks.first), String(tracks.last), 1);
  assert.equal(sel.ok, true, sel.error);
  assert.equal(sel.paged, true);
  assert.ok(sel.rowCount > 1);
  const whole = native(tracks.first, tracks.last);
  assert.equal(csvOf(sel.result), whole.csv);
  engine.release(sel.result);
  const empty = engine.timelineSelection(report, String(from), String(from), Infinity);
  assert.equal(empty.ok, false);
  assert.match(empty.error, /^selection statistics: the window \[\d+, \d+\) is empty$/);
  const bad = engine.timelineSelection(report, 'x', String(to), Infinity);
  assert.equal(bad.ok, false);
  assert.match(bad.error, /not a time in ns/);
});

// The Events view through the bridge (eventsView, eventsViewEvent,
// eventsViewRow, and the paged result's own calls on it) on the demo
// report, checked against an independent query of the same file with the
// sqlite3 shell: a stream's kernels, memcpys and memsets and a thread's
// API calls, in time order, page by page, sorted, searched, exported as
// CSV and cut by the statistics range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { parseCsv } from '../csv.mjs';
import { apiRows, STREAM_HEADERS, streamPlace, streamRows } from '../events_sql.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const engine = await createAsysEngine({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')) });
const demo = path.join(root, 'public/demo/demo-base.asysrep');

/** A page's row as texts, the way the CLI's CSV writes the cells ("-" for a missing one). */
function pageRow(page, r) {
  const pool = new TextDecoder().decode(page.textPool).split('\0');
  return page.columns.map((c, i) => {
    const cells = page.cells[i];
    if (c.kind === 'int') {
      const v = new BigInt64Array(cells.slice(8 * r, 8 * r + 8).buffer)[0];
      return v === -(2n ** 63n) ? '-' : String(v);
    }
    if (c.kind === 'text') return cells[r] === 0xffffffff ? '-' : pool[cells[r]];
    return Number.isNaN(cells[r]) ? '-' : cells[r].toFixed(1);
  });
}

function pageRows(result, rows) {
  const page = engine.pageRows(result, Uint32Array.from(rows));
  assert.equal(page.ok, true, page.error);
  return rows.map((_, i) => pageRow(page, i));
}

/** Rows as sorted texts: rows with the same start and end may come in either order, as the query does not fix it. */
const asSet = (rows) => rows.map((r) => r.join('|')).sort();

const opened = engine.open([demo]);
assert.equal(opened.ok, true, opened.error);
const report = opened.report;
const info = engine.timelineTracks(report);
assert.equal(info.ok, true, info.error);

// The stream with the most events that has both kernels and memory operations.
const streams = info.tracks
  .filter((t) => /^Stream \d+$/.test(t.label))
  .map((t) => {
    const { device, stream, context } = streamPlace(t);
    return { t, device, stream, context, rows: streamRows(demo, device, context, stream) };
  })
  .filter((s) => s.rows.some((r) => r[0].startsWith('Mem')) && s.rows.some((r) => r[4] !== '-'))
  .sort((a, b) => b.rows.length - a.rows.length);
assert.ok(streams.length > 0, 'the demo has a stream with kernels and memory operations');
const { t: streamTrack, device, stream, context, rows: expected } = streams[0];

test("a stream's Events view is a paged result of its kernels, memcpys and memsets in time order, as the tables hold them", () => {
  const v = engine.eventsView(report, streamTrack.id);
  assert.equal(v.ok, true, v.error);
  assert.equal(v.paged, true);
  assert.equal(v.kind, 'ppuWork');
  assert.equal(v.track, streamTrack.id);
  assert.equal(v.cells, undefined, 'no cells in the answer');
  assert.deepEqual(v.columns.map((c) => c.header), STREAM_HEADERS);
  assert.equal(v.rowCount, expected.length);
  assert.equal(v.rowCount, streamTrack.events);
  // Every row, a page of 200 at a time: the same rows, and the same (start, duration) in the same order.
  const got = [];
  for (let first = 0; first < v.rowCount; first += 200) {
    got.push(...pageRows(v.result, Array.from({ length: Math.min(200, v.rowCount - first) }, (_, i) => first + i)));
  }
  assert.deepEqual(got.map((r) => `${r[1]}+${r[2]}`), expected.map((r) => `${r[1]}+${r[2]}`));
  assert.deepEqual(asSet(got), asSet(expected));
  // A page in any order: the last row, the first, one in the middle.
  const mid = Math.floor(v.rowCount / 2);
  assert.deepEqual(
    pageRows(v.result, [v.rowCount - 1, 0, mid]).map((r) => `${r[1]}+${r[2]}`),
    [v.rowCount - 1, 0, mid].map((i) => `${expected[i][1]}+${expected[i][2]}`),
  );
  engine.release(v.result);
});

test('sorted by Duration, searched by name and exported as CSV, it answers what the query does', () => {
  const v = engine.eventsView(report, streamTrack.id);
  assert.equal(v.ok, true, v.error);
  // Descending by duration, equal durations in time order.
  const order = engine.sortOrder(v.result, 2, true);
  assert.equal(order.ok, true, order.error);
  const sorted = pageRows(v.result, Array.from(order.order));
  const byDuration = [...expected].sort((a, b) => Number(BigInt(b[2]) - BigInt(a[2])) || Number(BigInt(a[1]) - BigInt(b[1])) || Number(BigInt(a[1]) + BigInt(a[2]) - BigInt(b[1]) - BigInt(b[2])));
  assert.deepEqual(sorted.map((r) => `${r[1]}+${r[2]}`), byDuration.map((r) => `${r[1]}+${r[2]}`));
  // The search box: a kernel's name, as a part, in another case.
  const kernel = expected.find((r) => r[4] !== '-')[0];
  const part = kernel.slice(0, Math.min(kernel.length, 12)).toUpperCase();
  const mask = engine.searchRows(v.result, part, 0, v.rowCount, null);
  assert.equal(mask.ok, true, mask.error);
  const matches = [...mask.mask].reduce((n, m) => n + m, 0);
  assert.equal(matches, expected.filter((r) => r.some((c) => c.toUpperCase().includes(part))).length);
  assert.ok(matches > 0);
  // The CSV export (in parts, as the viewer asks): the CLI's CSV shape, absolute times.
  let csv = '';
  for (let first = 0; first < v.rowCount; first += 100) {
    const part = engine.renderCsvRows(v.result, first, 100);
    assert.equal(part.ok, true, part.error);
    csv += new TextDecoder().decode(part.bytes);
  }
  const [header, ...rows] = parseCsv(csv).map((r) => r.slice(0, -1));
  assert.deepEqual(header, ['Row#', ...v.columns.map((c) => c.header)]);
  assert.deepEqual(rows.map((r) => r[0]), rows.map((_, i) => String(i + 1)));
  assert.deepEqual(asSet(rows.map((r) => r.slice(1))), asSet(expected));
  engine.release(v.result);
});

test("a row's event on the timeline is the row's, and leads back to the row", () => {
  const v = engine.eventsView(report, streamTrack.id);
  for (const r of [0, Math.floor(v.rowCount / 3), v.rowCount - 1]) {
    const e = engine.eventsViewEvent(v.result, r);
    assert.equal(e.ok, true, e.error);
    const [row] = pageRows(v.result, [r]);
    assert.equal(e.event.track, streamTrack.id);
    assert.equal(String(e.event.start), row[1]);
    assert.equal(String(e.event.end - e.event.start), row[2]);
    assert.equal(e.event.name, row[0]);
    assert.equal(engine.eventsViewRow(v.result, e.event.event).row, r);
  }
  assert.equal(engine.eventsViewEvent(v.result, v.rowCount).error, `events view: no row ${v.rowCount}`);
  assert.equal(engine.eventsViewEvent(v.result, -1).error, 'events view: no row -1');
  engine.release(v.result);
});

test('the statistics range keeps the events overlapping it; an event outside it has no row', () => {
  const zero = info.captureStart ?? 0n;
  const first = BigInt(expected[0][1]);
  const last = BigInt(expected[expected.length - 1][1]);
  const [a, b] = [first + (last - first) / 4n, first + (last - first) / 2n];
  assert.equal(engine.setTimeFilter(report, `${a - zero}/${b - zero}`, '').ok, true);
  const v = engine.eventsView(report, streamTrack.id);
  assert.equal(v.ok, true, v.error);
  const inRange = streamRows(demo, device, context, stream, [a, b]);
  assert.ok(inRange.length > 0 && inRange.length < expected.length);
  assert.equal(v.rowCount, inRange.length);
  const got = pageRows(v.result, Array.from({ length: v.rowCount }, (_, i) => i));
  assert.deepEqual(asSet(got), asSet(inRange));
  // The track's first event is before the range: no row shows it.
  assert.equal(engine.eventsViewRow(v.result, 0).row, null);
  const e = engine.eventsViewEvent(v.result, 0);
  assert.equal(engine.eventsViewRow(v.result, e.event.event).row, 0);
  engine.release(v.result);
  assert.equal(engine.setTimeFilter(report, '', '').ok, true);
});

test("a thread's API calls: their correlation ids and return values, in time order", () => {
  const api = info.tracks.filter((t) => t.label.endsWith(' HGGC API')).sort((x, y) => y.events - x.events)[0];
  assert.ok(api, 'the demo has an API row');
  const pid = BigInt(/^Process (\d+)/.exec(api.group)[1]);
  const tid = BigInt(/^Thread (\d+)/.exec(api.label)[1]);
  const gtid = (pid << 24n) | tid;
  const want = apiRows(demo, gtid);
  const v = engine.eventsView(report, api.id);
  assert.equal(v.ok, true, v.error);
  assert.equal(v.kind, 'api');
  assert.deepEqual(v.columns.map((c) => c.header), ['Name', 'Start (ns)', 'Duration (ns)', 'CorrId', 'Return Value']);
  assert.equal(v.rowCount, want.length);
  const got = pageRows(v.result, Array.from({ length: v.rowCount }, (_, i) => i));
  assert.deepEqual(got.map((r) => `${r[1]}+${r[2]}`), want.map((r) => `${r[1]}+${r[2]}`));
  assert.deepEqual(asSet(got), asSet(want));
  engine.release(v.result);
});

test('a counter row, a row that does not exist and a result that is no events view are one-line errors', () => {
  const counter = info.tracks.find((t) => t.counter);
  assert.ok(counter, 'the demo has a counter row');
  assert.equal(engine.eventsView(report, counter.id).error, `events view: '${counter.label}' is a counter: it has no events to list`);
  assert.equal(engine.eventsView(report, info.tracks.length).error, `events view: no timeline row ${info.tracks.length}`);
  assert.equal(engine.eventsView(report, -1).error, 'events view: no timeline row -1');
  const run = engine.run(report, 'hggc_api_sum', '{}');
  assert.equal(engine.eventsViewEvent(run.result, 0).error, `result ${run.result} is not an events view`);
  engine.release(run.result);
});

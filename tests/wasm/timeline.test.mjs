// The timeline's bridge (timelineTracks, timelineWindow) on a hand-built
// report: busy shares as numbers, counter tracks with their unit and axis
// max, memory in use as exact int64 (past 2^53) and metrics as doubles.
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

// PPU 0: stream 7 [0, 30), stream 8 [25, 35): 30/35 and 10/35 of the PPU's
// union; memory: 2^53 + 1 bytes and 3 bytes allocated at ns 100 (one step:
// 9007199254740996, not representable as a double); util 50 % over [0, 10).
const SQL = `
CREATE TABLE META_DATA (name TEXT PRIMARY KEY, value TEXT);
INSERT INTO META_DATA VALUES ('format', 'asysrep'), ('formatVersion', '1'), ('captureStart', '0');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (6, 'k_a(int)'), (7, 'k_a');
CREATE TABLE HGGC_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
  streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER);
INSERT INTO HGGC_KERNEL VALUES (0, 30, 0, 1, 7, 1, 1677721600, 6, 7, 7), (25, 35, 0, 1, 8, 2, 1677721600, 6, 7, 7);
CREATE TABLE PPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER, globalTid INTEGER,
  deviceId INTEGER, contextId INTEGER, eventId INTEGER, address INTEGER, bytes INTEGER,
  memKind INTEGER, memoryOperationType INTEGER, accessFlags INTEGER, correlationId INTEGER, callchainId INTEGER);
INSERT INTO PPU_MEMORY_USAGE_EVENTS VALUES
  (100, 1677721600, 1677721701, 0, 1, 6, 4096, 9007199254740993, 1, 0, 0, NULL, NULL),
  (100, 1677721600, 1677721701, 0, 1, 7, 16384, 3, 1, 0, 0, NULL, NULL);
CREATE TABLE TARGET_INFO_PPU_METRICS (metricId INTEGER PRIMARY KEY, metricName TEXT, unit TEXT);
INSERT INTO TARGET_INFO_PPU_METRICS VALUES (1, 'util', '%');
CREATE TABLE PPU_METRICS (deviceId INTEGER, start INTEGER, duration INTEGER, metricId INTEGER, value REAL);
INSERT INTO PPU_METRICS VALUES (0, 0, 10, 1, 50.0);
`;

function report() {
  const out = path.join(os.tmpdir(), `asys-timeline-${process.pid}.asysrep`);
  fs.rmSync(out, { force: true });
  const r = spawnSync('sqlite3', [out], { input: SQL, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const opened = engine.open([out]);
  assert.equal(opened.ok, true, opened.error);
  return opened.report;
}

test('tracks carry busy shares and counters; a window carries exact int64 steps', () => {
  const id = report();
  const t = engine.timelineTracks(id);
  assert.equal(t.ok, true, t.error);
  // The PPU's one context has two streams: an [All Streams] row first.
  assert.deepEqual(t.tracks.map((x) => x.label), ['[All Streams]', 'Stream 7', 'Stream 8', 'Memory in use', 'util']);
  const [all, s7, s8, memory, util] = t.tracks;
  assert.deepEqual(all.sources, [1, 2]);
  assert.equal(all.events, 0);
  assert.equal(all.lanes, 2); // [0, 30) and [25, 35) run at once
  assert.equal(all.busy, 35n);
  assert.equal(all.share, 1);
  assert.equal(s7.sources, undefined);
  assert.equal(s7.busy, 30n);
  assert.ok(Math.abs(s7.share - 30 / 35) < 1e-12);
  assert.ok(Math.abs(s8.share - 10 / 35) < 1e-12);
  assert.equal(s7.counter, null);
  assert.equal(memory.share, null);
  assert.deepEqual(memory.counter, { unit: 'B', integer: true, max: 9007199254740996n });
  assert.deepEqual(util.counter, { unit: '%', integer: false, max: 50 });
  assert.deepEqual(t.groups, [{ name: 'PPU 0', busy: 35n, share: 1 }]);
  assert.deepEqual(t.notes, []);

  const w = engine.timelineWindow(id, '0', '200', 100, [1, 3, 4]);
  assert.equal(w.ok, true, w.error);
  assert.deepEqual(w.tracks.map((x) => x.id), [1]);
  const [m, u] = w.counters;
  assert.equal(m.id, 3);
  assert.equal(m.integer, true);
  const int64s = (bytes) => Array.from(new BigInt64Array(bytes.slice().buffer));
  assert.deepEqual(int64s(m.time), [100n]);
  assert.deepEqual(int64s(m.min), [9007199254740996n]);
  assert.deepEqual(int64s(m.max), [9007199254740996n]);
  assert.equal(u.integer, false);
  assert.deepEqual(int64s(u.time), [0n, 10n]);
  assert.ok(u.max instanceof Float64Array);
  assert.equal(u.max[0], 50);
  assert.ok(Number.isNaN(u.max[1])); // no value after the sample
  engine.close(id);
});

test('the [All Streams] row draws its streams\' events, numbered one source after another', () => {
  const id = report();
  assert.equal(engine.timelineTracks(id).ok, true);
  const w = engine.timelineWindow(id, '0', '100', 100, [0]);
  assert.equal(w.ok, true, w.error);
  const [all] = w.tracks;
  assert.equal(all.id, 0);
  const int64s = (bytes) => Array.from(new BigInt64Array(bytes.slice().buffer));
  assert.deepEqual(int64s(all.start), [0n, 25n]);
  assert.deepEqual(int64s(all.end), [30n, 35n]);
  assert.deepEqual(Array.from(all.lane), [0, 1]);
  // Stream 7's event 0 is the row's 0, stream 8's event 0 the row's 1.
  assert.deepEqual(Array.from(all.event), [0, 1]);
  engine.close(id);
});

test('timelineShares recomputes every share inside a range', () => {
  const id = report();
  assert.equal(engine.timelineTracks(id).ok, true);
  // [20, 30): stream 7 [20, 30) 10, stream 8 [25, 30) 5; the PPU 10.
  const s = engine.timelineShares(id, '20', '30');
  assert.equal(s.ok, true, s.error);
  assert.deepEqual(
    s.tracks.map((x) => x.share),
    [1, 1, 0.5, null, null],
  );
  assert.deepEqual(s.tracks.map((x) => x.contextShare), [null, null, null, null, null]);
  assert.deepEqual(s.groups, [1]);
  // [31, 40): only stream 8 [31, 35).
  const late = engine.timelineShares(id, '31', '40');
  assert.deepEqual(late.tracks.map((x) => x.share), [1, 0, 1, null, null]);
  // An empty range, a bad time: one line each.
  assert.match(engine.timelineShares(id, '30', '30').error, /range \[30, 30\) is empty/);
  assert.match(engine.timelineShares(id, 'x', '30').error, /range start 'x' is not a time/);
  engine.close(id);
});

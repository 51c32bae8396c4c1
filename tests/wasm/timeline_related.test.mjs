// The bridge's timelineRelated on the demo report against the native CLI:
// every HGGC API call's launched kernels (name, start) are the rows
// hggc_kern_exec_trace gives that call (its API Start and TID), each
// kernel's link is its call back, and bad ids are one-line errors.
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

const int64s = (bytes) => new BigInt64Array(bytes.slice().buffer);

test('every API call lists the kernels hggc_kern_exec_trace pairs with it, and each kernel its call', () => {
  const cli = spawnSync(path.join(root, 'build/native/asys'), ['stats', '-r', 'hggc_kern_exec_trace', '--format', 'csv', demo], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(cli.status, 0, cli.stderr);
  const [header, ...rows] = parseCsv(cli.stdout);
  const at = (name) => header.indexOf(name);
  const expected = new Map(); // "apiStart/tid" -> ["kernelStart name", ...]
  for (const r of rows) {
    const key = `${r[at('API Start (ns)')]}/${r[at('TID')]}`;
    if (!expected.has(key)) expected.set(key, []);
    expected.get(key).push(`${r[at('Kernel Start (ns)')]} ${r[at('Kernel Name')]}`);
  }
  const opened = engine.open([demo]);
  assert.equal(opened.ok, true, opened.error);
  const info = engine.timelineTracks(opened.report);
  const got = new Map();
  let checkedBack = 0;
  for (const track of info.tracks.filter((t) => t.label.endsWith('HGGC API'))) {
    const tid = /^Thread (\d+)/.exec(track.label)[1];
    for (let e = 0; e < track.events; e++) {
      const r = engine.timelineRelated(opened.report, track.id, e);
      assert.equal(r.ok, true, r.error);
      const kinds = r.related.kind, names = r.textPool.length ? new TextDecoder().decode(r.textPool).split('\0') : [];
      const starts = int64s(r.related.start);
      const kernels = [];
      // Kernels: on a stream row (kind 0) or the PPU's PCCL row (kind 7).
      for (let i = 0; i < kinds.length; i++) if (kinds[i] === 0 || kinds[i] === 7) kernels.push(`${starts[i]} ${names[r.related.name[i]]}`);
      if (kernels.length) got.set(`${r.selected.start}/${tid}`, kernels);
      // The first kernel's link is this call.
      if (kinds.length && checkedBack < 50) {
        const back = engine.timelineRelated(opened.report, r.related.track[0], r.related.event[0]);
        assert.deepEqual([back.related.track[0], back.related.event[0], back.related.track.length], [track.id, e, 1]);
        checkedBack++;
      }
    }
  }
  assert.ok(expected.size > 100, `${expected.size} launching calls`);
  const sorted = (m) => new Map([...m].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => (a < b ? -1 : 1)));
  assert.deepEqual(sorted(got), sorted(expected));
  assert.equal(checkedBack, 50);
});

test('timelineRelated: a bad track or event is a one-line error', () => {
  const opened = engine.open([demo]);
  const info = engine.timelineTracks(opened.report);
  assert.equal(engine.timelineRelated(opened.report, info.tracks.length, 0).error, `timeline: no track ${info.tracks.length}`);
  assert.equal(engine.timelineRelated(opened.report, 0, -1).error, 'timeline: track 0 has no event -1');
  assert.equal(engine.timelineRelated(opened.report, 0, info.tracks[0].events).error, `timeline: track 0 has no event ${info.tracks[0].events}`);
  assert.match(engine.timelineRelated(999, 0, 0).error, /no open report/);
});

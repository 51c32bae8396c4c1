// The timeline's engine cost on one report, in the WebAssembly engine under
// Node (the browser's engine): building the tracks (the first timeline call:
// loading kernels, memory operations, API calls and HGTX ranges, and the
// levels of detail), then window queries over all tracks at 1200 px, from
// the whole capture down to 1/10,000 of it, REPEAT times each (the best),
// a drag selection's statistics over the same windows (timelineSelection),
// and the engine's heap (its WebAssembly memory, which only grows: the peak).
// Usage: node bench/timeline-run.mjs REPORT [REPEAT]
// ENGINE=DIR takes asys_engine_node.{cjs,wasm} from DIR instead of
// build/wasm (a copy of an earlier build: before and after in one run).
import path from 'node:path';
import { loadNodeEngine } from './node-engine.mjs';

const [report, repeatText = '5'] = process.argv.slice(2);
const repeat = Number(repeatText);
const engine = await loadNodeEngine();
const opened = engine.open([report]);
if (!opened.ok) throw new Error(opened.error);
let t0 = performance.now();
const info = engine.timelineTracks(opened.report);
if (!info.ok) throw new Error(info.error);
const build = performance.now() - t0;
const heapMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
// The build's own figures first (standard error), so that they are kept
// when a later call (a whole-capture selection) runs out of memory.
console.error(JSON.stringify({ built: path.basename(report), buildMs: Math.round(build), heapMB }));
const ids = info.tracks.map((t) => t.id);
const events = info.tracks.reduce((n, t) => n + t.events, 0);
const span = info.last - info.first;
const rows = [];
for (const part of [1n, 10n, 100n, 1000n, 10000n]) {
  // A window in the middle of the capture.
  const from = info.first + (span - span / part) / 2n;
  const to = from + span / part;
  let best = Infinity, slices = 0;
  for (let k = 0; k < repeat; k++) {
    t0 = performance.now();
    const w = engine.timelineWindow(opened.report, String(from), String(to), 1200, ids);
    best = Math.min(best, performance.now() - t0);
    if (!w.ok) throw new Error(w.error);
    slices = w.tracks.reduce((n, t) => n + t.count.length, 0);
  }
  rows.push(`1/${part}: ${best.toFixed(1)} ms, ${slices} slices`);
}
// The windows on standard error too, before the selections: a whole-capture
// selection can run out of memory on a report the timeline just fits.
console.error(JSON.stringify({ windows: rows }));
// A drag selection's statistics over the same windows (timelineSelection,
// its grouped table answered whole and released), the best of REPEAT.
const selections = [];
for (const part of [1n, 10n, 100n, 1000n, 10000n]) {
  const from = info.first + (span - span / part) / 2n;
  const to = from + (span / part > 0n ? span / part : 1n);
  let best = Infinity, groups = 0;
  for (let k = 0; k < repeat; k++) {
    t0 = performance.now();
    let s;
    try {
      s = engine.timelineSelection(opened.report, String(from), String(to), Infinity);
    } catch (e) {
      s = { ok: false, error: String(e) };
    }
    best = Math.min(best, performance.now() - t0);
    if (!s.ok) {
      groups = `failed: ${s.error}`;
      break;
    }
    groups = s.rowCount;
    engine.release(s.result);
  }
  selections.push(typeof groups === 'string' ? `1/${part}: ${groups}` : `1/${part}: ${best.toFixed(1)} ms, ${groups} rows`);
}
const selectionHeapMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
// Where the engine has them (bridge 9): every row's shares recomputed inside
// the same windows (timelineShares, the statistics range's), and the
// [All Streams] rows' windows of the whole capture (their streams' merged).
const shares = [];
const merged = [];
if (typeof engine.timelineShares === 'function') {
  for (const part of [1n, 10n, 100n]) {
    const from = info.first + (span - span / part) / 2n;
    const to = from + span / part;
    let best = Infinity;
    for (let k = 0; k < repeat; k++) {
      t0 = performance.now();
      const s = engine.timelineShares(opened.report, String(from), String(to));
      best = Math.min(best, performance.now() - t0);
      if (!s.ok) throw new Error(s.error);
    }
    shares.push(`1/${part}: ${best.toFixed(1)} ms`);
  }
  for (const t of info.tracks.filter((x) => Array.isArray(x.sources))) {
    const time = (idList) => {
      let best = Infinity, slices = 0;
      for (let k = 0; k < repeat; k++) {
        t0 = performance.now();
        const w = engine.timelineWindow(opened.report, String(info.first), String(info.last + 1n), 1200, idList);
        best = Math.min(best, performance.now() - t0);
        slices = w.tracks.reduce((n, x) => n + x.count.length, 0);
      }
      return `${best.toFixed(1)} ms, ${slices} slices`;
    };
    merged.push(`${t.group} / ${t.label} (${t.lanes} lanes): ${time([t.id])}; its streams: ${time(t.sources)}`);
  }
}
console.log(
  JSON.stringify({ report: path.basename(report), tracks: info.tracks.length, events, buildMs: Math.round(build), heapMB, windows: rows, selections, selectionHeapMB, shares, merged }),
);

// PER_TRACK=1: each track's own window time (best of REPEAT) at the whole
// capture and 1/100 of it, the costliest first: what a frame of a few
// tracks pays for which.
if (process.env.PER_TRACK) {
  for (const part of [1n, 100n]) {
    const from = info.first + (span - span / part) / 2n;
    const to = from + span / part;
    const costs = info.tracks.map((t) => {
      let best = Infinity;
      for (let k = 0; k < repeat; k++) {
        t0 = performance.now();
        engine.timelineWindow(opened.report, String(from), String(to), 1200, [t.id]);
        best = Math.min(best, performance.now() - t0);
      }
      return { track: `${t.group} / ${t.label}`, counter: !!t.counter, events: t.events, ms: Number(best.toFixed(2)) };
    });
    costs.sort((a, b) => b.ms - a.ms);
    const sum = (xs) => xs.reduce((n, c) => n + c.ms, 0).toFixed(1);
    console.log(`1/${part}: all ${sum(costs)} ms, counters ${sum(costs.filter((c) => c.counter))} ms, costliest:`);
    for (const c of costs.slice(0, 12)) console.log(`  ${c.ms} ms  ${c.counter ? 'counter' : `${c.events} events`}  ${c.track}`);
  }
}

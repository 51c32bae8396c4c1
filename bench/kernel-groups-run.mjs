// What "Show kernels grouped by" costs in the WebAssembly engine under Node
// (the browser's engine): builds the timeline of one report, then asks for
// every stream's rows (streams and PCCL kernels rows) by MODE, one call per
// PPU as the viewer asks for the rows near the view: `base`
// (timelineKernelGroups) or `range` (timelineKernelRangeGroups). Prints the
// engine's heap (its WebAssembly memory, which only grows: the peak) after
// the build and after the rows, the rows made and the CPU time of each step.
// Usage: node bench/kernel-groups-run.mjs REPORT base|range
import path from 'node:path';
import { cpuMs, loadNodeEngine } from './node-engine.mjs';

const [report, mode = 'range'] = process.argv.slice(2);
const engine = await loadNodeEngine();
const opened = engine.open([report]);
if (!opened.ok) throw new Error(opened.error);
let c0 = cpuMs();
const info = engine.timelineTracks(opened.report);
if (!info.ok) throw new Error(info.error);
const buildCpuMs = Math.round(cpuMs() - c0);
const heapBuiltMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
// The streams and PCCL kernels rows (events, no counter, no [All Streams]), by PPU.
const byPpu = new Map();
for (const t of info.tracks) {
  if (!/^PPU /.test(t.group) || t.counter || t.sources || t.events === 0) continue;
  if (!/^(Stream |PCCL kernels)/.test(t.label)) continue;
  byPpu.set(t.group, [...(byPpu.get(t.group) ?? []), t.id]);
}
c0 = cpuMs();
let added = 0;
for (const ids of byPpu.values()) {
  const r = mode === 'base' ? engine.timelineKernelGroups(opened.report, ids) : engine.timelineKernelRangeGroups(opened.report, ids);
  if (!r.ok) throw new Error(r.error);
  added += r.added;
}
const groupCpuMs = Math.round(cpuMs() - c0);
console.log(
  JSON.stringify({
    report: path.basename(report),
    mode,
    streams: [...byPpu.values()].reduce((n, ids) => n + ids.length, 0),
    buildCpuMs,
    heapBuiltMB,
    groupCpuMs,
    rows: added,
    heapAfterMB: Math.round(engine.HEAP8.buffer.byteLength / 1e6),
  }),
);

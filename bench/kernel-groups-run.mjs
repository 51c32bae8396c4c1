// What "Show kernels grouped by" costs in the WebAssembly engine under Node
// (the browser's engine): builds the timeline of one report, then asks for
// every stream's rows (streams and PCCL kernels rows) by MODE, one call per
// PPU as the viewer asks for the rows near the view: `base`
// (timelineKernelGroups) or `range` (timelineKernelRangeGroups). Prints the
// engine's heap (its WebAssembly memory, which only grows: the peak) after
// the build and after the rows, the rows made and the CPU time of each step.
// Usage: node bench/kernel-groups-run.mjs REPORT base|range
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const engineDir = process.env.ENGINE ? path.resolve(process.env.ENGINE) : path.join(root, 'build/wasm');
const createAsysEngine = require(path.join(engineDir, 'asys_engine_node.cjs'));
const [report, mode = 'range'] = process.argv.slice(2);
const engine = await createAsysEngine({ wasmBinary: fs.readFileSync(path.join(engineDir, 'asys_engine_node.wasm')) });
const opened = engine.open([report]);
if (!opened.ok) throw new Error(opened.error);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let c0 = cpu();
const info = engine.timelineTracks(opened.report);
if (!info.ok) throw new Error(info.error);
const buildCpuMs = Math.round(cpu() - c0);
const heapBuiltMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
// The streams and PCCL kernels rows (events, no counter, no [All Streams]), by PPU.
const byPpu = new Map();
for (const t of info.tracks) {
  if (!/^PPU /.test(t.group) || t.counter || t.sources || t.events === 0) continue;
  if (!/^(Stream |PCCL kernels)/.test(t.label)) continue;
  byPpu.set(t.group, [...(byPpu.get(t.group) ?? []), t.id]);
}
c0 = cpu();
let added = 0;
for (const ids of byPpu.values()) {
  const r = mode === 'base' ? engine.timelineKernelGroups(opened.report, ids) : engine.timelineKernelRangeGroups(opened.report, ids);
  if (!r.ok) throw new Error(r.error);
  added += r.added;
}
const groupCpuMs = Math.round(cpu() - c0);
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

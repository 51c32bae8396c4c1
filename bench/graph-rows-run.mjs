// What the graph rows cost in the WebAssembly engine under Node (the
// browser's engine): builds the timeline of one report and its device rows
// (as the worker does), then the graph rows (timelineGraphRows). Prints the
// engine's heap (its WebAssembly memory, which only grows: the peak) after
// the device rows and after the graph rows, the rows made and the CPU time
// of each step. Usage: node bench/graph-rows-run.mjs REPORT
import path from 'node:path';
import { cpuMs, loadNodeEngine } from './node-engine.mjs';

const [report] = process.argv.slice(2);
const engine = await loadNodeEngine();
const opened = engine.open([report]);
if (!opened.ok) throw new Error(opened.error);
let c0 = cpuMs();
const info = engine.timelineTracks(opened.report);
if (!info.ok) throw new Error(info.error);
const device = engine.timelineDeviceRows(opened.report);
if (!device.ok) throw new Error(device.error);
const buildCpuMs = Math.round(cpuMs() - c0);
const heapBuiltMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
c0 = cpuMs();
const graph = engine.timelineGraphRows(opened.report);
if (!graph.ok) throw new Error(graph.error);
const graphCpuMs = Math.round(cpuMs() - c0);
console.log(
  JSON.stringify({
    report: path.basename(report),
    buildCpuMs,
    heapBuiltMB,
    graphCpuMs,
    graphRows: graph.added,
    heapAfterMB: Math.round(engine.HEAP8.buffer.byteLength / 1e6),
  }),
);

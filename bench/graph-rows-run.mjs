// What the graph rows cost in the WebAssembly engine under Node (the
// browser's engine): builds the timeline of one report and its device rows
// (as the worker does), then the graph rows (timelineGraphRows). Prints the
// engine's heap (its WebAssembly memory, which only grows: the peak) after
// the device rows and after the graph rows, the rows made and the CPU time
// of each step. Usage: node bench/graph-rows-run.mjs REPORT
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const engineDir = process.env.ENGINE ? path.resolve(process.env.ENGINE) : path.join(root, 'build/wasm');
const createAsysEngine = require(path.join(engineDir, 'asys_engine_node.cjs'));
const [report] = process.argv.slice(2);
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
const device = engine.timelineDeviceRows(opened.report);
if (!device.ok) throw new Error(device.error);
const buildCpuMs = Math.round(cpu() - c0);
const heapBuiltMB = Math.round(engine.HEAP8.buffer.byteLength / 1e6);
c0 = cpu();
const graph = engine.timelineGraphRows(opened.report);
if (!graph.ok) throw new Error(graph.error);
const graphCpuMs = Math.round(cpu() - c0);
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

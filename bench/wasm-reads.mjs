// How a rule reads the report in the WebAssembly engine under Node: every
// read of the report's file (NODERAWFS's fs.readSync) while the rule runs,
// summed: the reads, their bytes against the file's size, those under 1 MiB,
// and the passes over the file (a read of 1 MiB or more that starts a
// quarter of the file or more behind the previous one begins a new pass),
// each with the share of the file it read. In the browser each of these
// reads is a FileReaderSync call, whose cost grows with the bytes
// (bench/README.md, 2026-12-06 simd8).
// RULE `timeline` reads what opening the timeline view does instead: the
// tracks, the device rows and the graph rows, as the viewer's worker asks.
// Usage: node bench/wasm-reads.mjs REPORT RULE|timeline   (prints one JSON line)
import fs from 'node:fs';
import path from 'node:path';
import { loadNodeEngine } from './node-engine.mjs';

const [reportArg, rule] = process.argv.slice(2);
if (!reportArg || !rule) {
  console.error('usage: node bench/wasm-reads.mjs REPORT RULE|timeline');
  process.exit(2);
}
const report = path.resolve(reportArg);
const size = fs.statSync(report).size;
let fd = -1;
const log = [];
const realOpen = fs.openSync;
const realRead = fs.readSync;
fs.openSync = function (file, ...rest) {
  const d = realOpen.call(this, file, ...rest);
  if (path.resolve(String(file)) === report) fd = d;
  return d;
};
fs.readSync = function (d, buffer, offset, length, position) {
  if (d === fd) log.push([Number(position), length]);
  return realRead.apply(this, arguments);
};
const engine = await loadNodeEngine();
const opened = engine.open([report]);
if (!opened.ok) throw new Error(`open: ${opened.error}`);
const before = log.length;
const calls = rule === 'timeline'
  ? [() => engine.timelineTracks(opened.report), () => engine.timelineDeviceRows(opened.report), () => engine.timelineGraphRows(opened.report)]
  : [() => engine.runPaged(opened.report, rule, '{}', 0)];
for (const call of calls) {
  const run = call();
  if (!run.ok) throw new Error(`${rule}: ${run.error}`);
}
let bytes = 0, small = 0, smallBytes = 0, last = 0, passBytes = 0;
const passes = [];
for (const [position, length] of log.slice(before)) {
  bytes += length;
  if (length < 1 << 20) {
    small++;
    smallBytes += length;
    continue;
  }
  if (position < last - size / 4) {
    passes.push(+(passBytes / size).toFixed(2));
    passBytes = 0;
  }
  last = position;
  passBytes += length;
}
passes.push(+(passBytes / size).toFixed(2));
console.log(JSON.stringify({
  report: path.basename(report),
  rule,
  bytes: size,
  reads: log.length - before,
  readBytes: bytes,
  timesTheFile: +(bytes / size).toFixed(2),
  smallReads: small,
  smallMiB: Math.round(smallBytes / 2 ** 20),
  passes,
}));

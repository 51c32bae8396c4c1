// Where the viewer's ceiling is. For each kernel rule, the WebAssembly
// engine's memory after opening a report and running the rule as the viewer
// does (run: the whole columnar answer), in a fresh engine per run
// (WebAssembly memory only grows, so this is the run's peak, to the step it
// grows by), on a smaller and a larger report of the same make-up. The
// memory a kernel costs is the slope between the two; the largest report
// that fits the engine's 2 GB (wasm/CMakeLists.txt) follows from it. A rule
// that runs out of memory on the larger report says so.
// Usage: node bench/ceiling.mjs SMALL_REPORT LARGE_REPORT   (a Markdown table)
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const wasmBinary = fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm'));
const LIMIT = 2 ** 31;

const reports = process.argv.slice(2, 4).map((r) => {
  const file = path.resolve(r);
  return {
    file,
    bytes: fs.statSync(file).size,
    kernels: Number(execFileSync('sqlite3', [file, 'SELECT count(*) FROM HGGC_KERNEL']).toString()),
  };
});
if (reports.length !== 2) throw new Error('usage: node bench/ceiling.mjs SMALL_REPORT LARGE_REPORT');
const [small, large] = reports;

/** Engine memory in bytes after `rule` on `report`, or null when it ran out of memory. */
async function memoryOf(rule, report) {
  const engine = await createAsysEngine({ wasmBinary });
  const opened = engine.open([report.file]);
  if (!opened.ok) throw new Error(`cannot open ${report.file}: ${opened.error}`);
  const result = engine.run(opened.report, rule, '{}');
  if (!result.ok) {
    if (/bad_alloc|out of memory/i.test(result.error)) return null;
    throw new Error(`${rule}: ${result.error}`);
  }
  return engine.HEAPU8.length;
}

const mib = (b) => (b / 2 ** 20).toFixed(0);
const rules = ['hggc_ppu_kern_sum', 'hggc_ppu_kern_gb_sum', 'hggc_ppu_kern_gb_trace', 'hggc_kern_exec_trace', 'hggc_ppu_trace'];
// A rule that fails otherwise is an error of the script (memoryOf throws): never a figure.
console.log(
  `| rule | engine memory, ${small.kernels} kernels (MiB) | engine memory, ${large.kernels} kernels (MiB) | bytes per kernel | largest report that fits (kernels) | (GB, ${(large.bytes / large.kernels).toFixed(0)} bytes per kernel) |`,
);
console.log('|---|---|---|---|---|---|');
for (const rule of rules) {
  const a = await memoryOf(rule, small);
  const b = await memoryOf(rule, large);
  if (b === null) {
    // It did not fit: the larger report bounds the ceiling from above.
    console.log(
      `| ${rule} | ${mib(a)} | out of memory | ~${(a / small.kernels).toFixed(0)} | < ${large.kernels.toLocaleString('en')} | < ${(large.bytes / 1e9).toFixed(1)} |`,
    );
    continue;
  }
  if (b <= a) {
    // Both fit the engine's first heap: no slope to measure (a smoke run).
    console.log(`| ${rule} | ${mib(a)} | ${mib(b)} | - | (the reports are too small to tell) | - |`);
    continue;
  }
  const perKernel = (b - a) / (large.kernels - small.kernels);
  const fixed = a - perKernel * small.kernels;
  const fit = Math.floor((LIMIT - fixed) / perKernel);
  const gb = ((fit * large.bytes) / large.kernels / 1e9).toFixed(1);
  console.log(`| ${rule} | ${mib(a)} | ${mib(b)} | ${perKernel.toFixed(0)} | ${fit.toLocaleString('en')} | ${gb} |`);
}

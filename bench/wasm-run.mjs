// Runs one rule on one report with the WebAssembly engine under Node and
// prints the CSV, like `asys stats -r RULE REPORT` (for bench/run.sh and
// bench/rules.sh); a compare rule on REPORT and TARGET, like `asys stats -r
// RULE REPORT TARGET`.
// Usage: node bench/wasm-run.mjs REPORT RULE [TARGET]
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
// ASYS_WASM_BINARY: another build's module, to time two builds side by side;
// its own glue (asys_engine_node.cjs beside it) when there is one, since two
// builds' glue may differ (another build tree's flags).
const binary = process.env.ASYS_WASM_BINARY || path.join(root, 'build/wasm/asys_engine_node.wasm');
const glue = path.join(path.dirname(path.resolve(binary)), 'asys_engine_node.cjs');
const createAsysEngine = require(fs.existsSync(glue) ? glue : path.join(root, 'build/wasm/asys_engine_node.cjs'));
const [report, rule, target] = process.argv.slice(2);
const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(binary),
});
// Bridge v3 (wasm/engine_bindings.cc): handles, one envelope per answer.
// Any failed call is an error and a non-zero exit, never a time.
function ok(answer, what) {
  if (!answer || answer.ok !== true) {
    console.error(`wasm-run: ${what}: ${answer ? answer.error : 'no answer'}`);
    process.exit(1);
  }
  return answer;
}
const opened = ok(engine.open([path.resolve(report)]), 'open');
const run = target
  ? ok(engine.runCompare(opened.report, ok(engine.open([path.resolve(target)]), 'open').report, rule, '{}'), rule)
  : // As the viewer runs a large result (web/src/engine, runPaged): it stays
    // in the engine (a cell limit of 0) and is rendered from there, where
    // `run` hands every cell over first, which a 9 M-row trace cannot
    // (hgtx_pushpop_trace at scale 2500: std::bad_alloc).
    ok(engine.runPaged(opened.report, rule, '{}', 0), rule);
// The CSV in parts, as the viewer exports it: a trace's text does not fit
// one string.
const rows = Number(run.rowCount);
for (let first = 0; first === 0 || first < rows; first += 1 << 16) {
  process.stdout.write(ok(engine.renderCsvRows(run.result, first, 1 << 16), 'renderCsvRows').bytes);
}

// Runs one rule on one report with the WebAssembly engine under Node and
// prints the CSV, like `asys stats -r RULE REPORT` (for bench/run.sh).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const [report, rule] = process.argv.slice(2);
const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')),
});
const opened = JSON.parse(engine.openReport(path.resolve(report)));
if (!opened.ok) throw new Error(opened.error);
const out = JSON.parse(engine.renderRule(rule, '{}', 'csv'));
if (!out.ok) throw new Error(out.error);
process.stdout.write(out.text);

// Soak: one WebAssembly engine under Node opens a report, runs five rules
// (a summary, a trace that is a view, a range summary, the metric trace and
// the desync summary), pages, sorts and exports each result in parts,
// releases them and closes the report, ROUNDS times. The engine's memory
// (its WebAssembly heap, which grows and never shrinks) after the last round
// must be within 5% of its size after the first: a leak of a result, a view,
// a report or its tables would grow it round after round.
// Prints one JSON line; exits 1 when a call fails or the memory grew more.
// Usage: node bench/soak.mjs REPORT [ROUNDS]   (default 50; needs build/wasm)
import path from 'node:path';
import { loadNodeEngine } from './node-engine.mjs';

const [reportArg, roundsArg = '50'] = process.argv.slice(2);
if (!reportArg) {
  console.error('usage: node bench/soak.mjs REPORT [ROUNDS]');
  process.exit(2);
}
const report = path.resolve(reportArg);
const rounds = Number(roundsArg);
const engine = await loadNodeEngine();
const RULES = ['hggc_ppu_kern_sum', 'hggc_ppu_trace', 'hgtx_sum', 'ppu_metric_trace', 'pccl_desync_summary'];

function ok(answer, what) {
  if (!answer || answer.ok !== true) {
    console.error(`soak: ${what}: ${answer ? answer.error : 'no answer'}`);
    process.exit(1);
  }
  return answer;
}

const heapBytes = () => engine.HEAPU8.length;
const sizes = [];
const started = Date.now();
for (let round = 1; round <= rounds; round++) {
  const opened = ok(engine.open([report]), `round ${round}: open`);
  for (const rule of RULES) {
    const run = ok(engine.run(opened.report, rule, '{}'), `round ${round}: ${rule}`);
    const rows = Number(run.rowCount);
    ok(engine.page(run.result, Math.max(0, rows - 10), 10), `${rule}: page`);
    ok(engine.sortOrder(run.result, 0, true), `${rule}: sortOrder`);
    for (let first = 0; first === 0 || first < rows; first += 1 << 16) {
      ok(engine.renderCsvRows(run.result, first, 1 << 16), `${rule}: renderCsvRows`);
    }
    ok(engine.release(run.result), `${rule}: release`);
  }
  ok(engine.close(opened.report), `round ${round}: close`);
  sizes.push(heapBytes());
}
const first = sizes[0], last = sizes[sizes.length - 1];
const growth = last / first - 1;
console.log(
  JSON.stringify({
    report: path.basename(report),
    rounds,
    rules: RULES,
    firstRoundMiB: +(first / 2 ** 20).toFixed(1),
    lastRoundMiB: +(last / 2 ** 20).toFixed(1),
    growth: +growth.toFixed(4),
    seconds: (Date.now() - started) / 1000,
  }),
);
if (growth > 0.05) {
  console.error(`soak: the engine's memory grew ${(growth * 100).toFixed(1)}% from the first round to the last`);
  process.exit(1);
}

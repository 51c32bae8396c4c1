// How the WebAssembly engine reads a report: through its read-ahead VFS, in
// a few large reads of the file (each one a FileReaderSync call in the
// browser; here NODERAWFS's fs.readSync, counted), with answers equal to the
// native CLI's; a rule over columns already loaded reads nothing; running
// out of memory is a clear error after which the engine still works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const nativeAsys = path.join(root, 'build/native/asys');

// ~90 MB: more than the engine's 80 MiB block cache, so blocks are dropped
// and read again during one scan.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-reads-'));
const report = path.join(dir, 'reads.asysrep');
const gen = spawnSync(nativeAsys, ['gen', '--seed', '3', '--scale', '120', '-o', report], { encoding: 'utf8' });
assert.equal(gen.status, 0, gen.stderr);
const size = fs.statSync(report).size;
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

// Every read of the report's file descriptor, as NODERAWFS makes them.
const reads = { count: 0, bytes: 0 };
let reportFd = -1;
const realOpen = fs.openSync;
const realRead = fs.readSync;
fs.openSync = function (file, ...rest) {
  const fd = realOpen.call(this, file, ...rest);
  if (path.resolve(String(file)) === report) reportFd = fd;
  return fd;
};
fs.readSync = function (fd, buffer, offset, length, position) {
  if (fd === reportFd) {
    reads.count++;
    reads.bytes += length;
  }
  return realRead.apply(this, arguments);
};
function readsOf(f) {
  const before = { ...reads };
  f();
  return { count: reads.count - before.count, bytes: reads.bytes - before.bytes };
}

const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')),
});

function nativeCsv(rule) {
  const r = spawnSync(nativeAsys, ['stats', '-r', rule, report], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}
// One report open at a time (bridge version 2 works on report handles).
let current = 0;
function openReport(file) {
  if (current) assert.equal(engine.close(current).ok, true);
  const opened = engine.open([file]);
  assert.equal(opened.ok, true, opened.error);
  current = opened.report;
}
// run + render + release; the answer's envelope as the bridge gives it.
function tryRender(rule, options = {}) {
  const run = engine.run(current, rule, JSON.stringify(options));
  if (!run.ok) return run;
  const out = engine.render(run.result, 'csv');
  assert.equal(engine.release(run.result).ok, true);
  return out;
}
function render(rule, options = {}) {
  const out = tryRender(rule, options);
  assert.equal(out.ok, true, `${rule}: ${out.error}`);
  return out.text;
}

test('a rule reads the report in a few large reads, about once, and answers as the CLI does', () => {
  const opening = readsOf(() => openReport(report));
  assert.ok(opening.bytes < 2 << 20, `opening read ${opening.bytes} bytes`);
  let text;
  const rule = readsOf(() => (text = render('hggc_ppu_kern_sum')));
  // Page by page this would be ~7,000 reads of 4 KiB (one per kernel page).
  assert.ok(rule.count < 40, `${rule.count} reads`);
  assert.ok(rule.bytes <= size * 1.1, `${rule.bytes} bytes of a ${size}-byte file`);
  assert.equal(text, nativeCsv('hggc_ppu_kern_sum'));
});

// The kernel summaries fold HGGC_KERNEL as they scan it and keep no column
// (issue 20: bounded memory, docs/result-views.md "Folded as scanned"), so a
// second one reads the table again: in a few large reads, about once, never
// page by page. (Before 2026-12-05 hggc_ppu_kern_gb_sum held every kernel
// column and the next rules read nothing; that cache cost 0.6x the report.)
test('a second kernel summary reads the kernel table again in a few large reads, about once', () => {
  openReport(report);
  assert.ok(readsOf(() => render('hggc_ppu_kern_gb_sum')).count > 0);
  for (const [rule, options] of [
    ['hggc_ppu_kern_sum', {}],
    ['hggc_ppu_kern_sum', { 'name-mode': 'base', device: '0' }],
    ['hggc_ppu_kern_gb_sum', { 'name-mode': 'mangled' }],
    ['hggc_ppu_kern_gb_sum', { device: '1' }],
  ]) {
    let text;
    const reads = readsOf(() => (text = render(rule, options)));
    assert.ok(reads.count > 0 && reads.count < 40, `${rule}: ${reads.count} reads`);
    assert.ok(reads.bytes <= size * 1.1, `${rule}: ${reads.bytes} bytes of a ${size}-byte file`);
    if (Object.keys(options).length === 0) assert.equal(text, nativeCsv(rule), rule);
  }
});

test('running out of memory is an error, and the engine still works afterwards', () => {
  openReport(report);
  // Take all but a little of the 2 GB the module may grow to.
  const held = [];
  for (let p; (p = engine._malloc(64 << 20)); ) held.push(p);
  assert.ok(held.length > 25, `only ${held.length} x 64 MiB`);
  let failed;
  try {
    failed = tryRender('hggc_ppu_kern_gb_sum');
  } finally {
    for (const p of held) engine._free(p);
  }
  assert.equal(failed.ok, false);
  assert.match(failed.error, /bad_alloc|out of memory/i);
  // Nothing half-loaded stays behind: the same rule now runs, and is right.
  assert.equal(render('hggc_ppu_kern_gb_sum'), nativeCsv('hggc_ppu_kern_gb_sum'));
});

// ppu_kernel_summary_compare on real reports of two kinds (shared/data/real):
// two ranks of a PyTorch run (the PARAM DLRM Kineto traces), and an Nsight
// Systems SQLite export against a Kineto trace, checked against per-kernel
// totals and instance counts computed here, independently, from the JSON
// files and with SQL on the export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dir = path.join(root, '../shared/data/real/kineto/param/dlrm_kineto');
const asys = path.join(root, 'build/native/asys');

// Kernel name -> { count, totalNs } straight from the trace's "kernel" events
// (durations are whole microseconds in these files).
function kernelTotals(file) {
  const trace = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
  const totals = new Map();
  for (const e of trace.traceEvents) {
    if (e.cat !== 'kernel' || e.ph !== 'X') continue;
    assert.ok(Number.isInteger(e.dur), `whole microseconds: ${e.dur}`);
    const t = totals.get(e.name) ?? { count: 0, totalNs: 0 };
    t.count += 1;
    t.totalNs += e.dur * 1000;
    totals.set(e.name, t);
  }
  return totals;
}

// RFC 4180 fields of one CSV line (our lines end with a comma: drop the last, empty, field).
function fields(line) {
  const out = [];
  let cur = '', quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out.slice(0, -1);
}

// The same from an Nsight Systems export, with the sqlite3 shell: kernels by
// demangled name (the rule's default name mode).
function nsysKernelTotals(file) {
  const sql =
    'SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k ' +
    'JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value';
  const r = spawnSync('sqlite3', ['-separator', '\t', file, sql], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const totals = new Map();
  for (const line of r.stdout.trimEnd().split('\n')) {
    const [name, count, total] = line.split('\t');
    totals.set(name, { count: Number(count), totalNs: Number(total) });
  }
  return totals;
}

// Every row of a ppu_kernel_summary_compare CSV against the two sides' totals.
function checkAgainst(stdout, base, target) {
  const lines = stdout.trimEnd().split('\n');
  const header = fields(lines[0]);
  const col = (name) => header.indexOf(name);
  const names = new Set([...base.keys(), ...target.keys()]);
  assert.equal(lines.length - 1, names.size, 'one row per kernel name of either report');
  const side = (cell, i) => (cell === '-' ? '-' : cell.split(' / ')[i]);
  for (const line of lines.slice(1)) {
    const f = fields(line);
    const name = f[col('Base Kernel')] !== '-' ? f[col('Base Kernel')] : f[col('Target Kernel')];
    const b = base.get(name), tg = target.get(name);
    assert.ok(b || tg, `a kernel of neither report: ${name}`);
    assert.equal(side(f[col('Instances')], 0), b ? String(b.count) : '-', name);
    assert.equal(side(f[col('Instances')], 1), tg ? String(tg.count) : '-', name);
    assert.equal(side(f[col('Total (ns)')], 0), b ? String(b.totalNs) : '-', name);
    assert.equal(side(f[col('Total (ns)')], 1), tg ? String(tg.totalNs) : '-', name);
    if (b && tg && tg.totalNs > 0) {
      // Half away from zero at one decimal, in integers.
      const tenths = Math.floor((20 * b.totalNs + tg.totalNs) / (2 * tg.totalNs));
      assert.equal(f[col('Total Ratio')], (tenths / 10).toFixed(1), name);
    } else {
      assert.equal(f[col('Total Ratio')], '-', name);
    }
  }
  return lines.length - 1;
}

test('ppu_kernel_summary_compare of an Nsight Systems export against a Kineto trace matches SQL and the JSON', (t) => {
  const nsys = path.join(root, '../shared/data/real/nsys-sqlite/nsys-ai/h100_2gpu_1s.sqlite');
  if (!fs.existsSync(nsys) || !fs.existsSync(dir)) return t.skip('real data not present');
  const kineto = path.join(dir, fs.readdirSync(dir).filter((f) => /^worker0_/.test(f))[0]);
  const r = spawnSync(asys, ['stats', '-r', 'ppu_kernel_summary_compare', nsys, kineto], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const rows = checkAgainst(r.stdout, nsysKernelTotals(nsys), kernelTotals(kineto));
  assert.ok(rows > 100, `${rows} rows`);
});

test('ppu_kernel_summary_compare of DLRM worker0 against worker1 matches the JSON', (t) => {
  if (!fs.existsSync(dir)) return t.skip(`real data not present: ${dir}`);
  const files = fs.readdirSync(dir).filter((f) => /^worker[01]_/.test(f)).sort().map((f) => path.join(dir, f));
  assert.equal(files.length, 2);
  const [base, target] = files.map(kernelTotals);
  const r = spawnSync(asys, ['stats', '-r', 'ppu_kernel_summary_compare', files[0], files[1]], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  checkAgainst(r.stdout, base, target);
});

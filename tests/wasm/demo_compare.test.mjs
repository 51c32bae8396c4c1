// Every compare rule on the demo pair (base against slow), its first two
// rows checked against values worked out independently: the plain rule each
// compares, run on each report alone (its own golden tests check it), and,
// for ppu_time_util_compare, the union of each device's kernels, memcpys and
// memsets read with SQL and merged here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const asys = path.join(root, 'build/native/asys');
const base = path.join(root, 'public/demo/demo-base.asysrep');
const slow = path.join(root, 'public/demo/demo-slow.asysrep');

function run(args) {
  const r = spawnSync(asys, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

// RFC 4180 fields per line; our lines end with a comma (the last, empty, field dropped).
function csv(text) {
  const rows = [];
  let row = [], cur = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cur), (cur = '');
    else if (c === '\n') row.push(cur), rows.push(row.slice(0, -1)), (row = []), (cur = '');
    else cur += c;
  }
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

// Ratio base / target at one decimal, half away from zero, in integers; "-" when the target is 0.
function ratio(b, t) {
  b = BigInt(b), t = BigInt(t);
  if (t === 0n) return '-';
  const tenths = (20n * b + t) / (2n * t);
  return `${tenths / 10n}.${tenths % 10n}`;
}
// A percentage at one decimal, half away from zero.
function percent(part, whole) {
  const tenths = (2000n * BigInt(part) + BigInt(whole)) / (2n * BigInt(whole));
  return `${tenths / 10n}.${tenths % 10n}`;
}

function compareRows(rule) {
  const rows = csv(run(['stats', '-r', rule, base, slow]));
  assert.ok(rows.length >= 2, `${rule}: ${rows.length} rows`);
  return rows.slice(0, 2);
}

test('ppu_kernel_summary_compare: each side is hggc_ppu_kern_sum of its report', () => {
  const sides = [base, slow].map((f) => new Map(csv(run(['stats', '-r', 'hggc_ppu_kern_sum', f])).map((r) => [r.Name, r])));
  for (const row of compareRows('ppu_kernel_summary_compare')) {
    const [b, t] = sides.map((s) => s.get(row['Base Kernel']));
    assert.equal(row['Target Kernel'], row['Base Kernel']);
    assert.equal(row.Instances, `${b.Instances} / ${t.Instances}`);
    assert.equal(row['Percent (%)'], `${b['Time (%)']} / ${t['Time (%)']}`);
    assert.equal(row['Total (ns)'], `${b['Total Time (ns)']} / ${t['Total Time (ns)']}`);
    assert.equal(row['Avg (ns)'], `${b['Avg (ns)']} / ${t['Avg (ns)']}`);
    assert.equal(row['Total Ratio'], ratio(b['Total Time (ns)'], t['Total Time (ns)']));
    assert.equal(row['Avg Ratio'], ratio(b['Avg (ns)'], t['Avg (ns)']));
  }
});

test('hgtx_ppu_projection_summary_compare: each side is hgtx_ppu_proj_sum of its report', () => {
  const sides = [base, slow].map((f) => new Map(csv(run(['stats', '-r', 'hgtx_ppu_proj_sum', f])).map((r) => [r.Range, r])));
  for (const row of compareRows('hgtx_ppu_projection_summary_compare')) {
    const [b, t] = sides.map((s) => s.get(row['Base Range']));
    assert.equal(row['In-Use (%)'], `${b['In-Use (%)']} / ${t['In-Use (%)']}`);
    assert.equal(row['Range Instance'], `${b['Range Instances']} / ${t['Range Instances']}`);
    for (const [pair, col, rat] of [
      ['Proj Avg (ns)', 'Proj Avg (ns)', 'Proj Avg Ratio'],
      ['Proj Active Time (ns)', 'Proj Active Time (ns)', 'Proj Active Ratio'],
      ['Total Proj Time (ns)', 'Total Proj Time (ns)', 'Total Proj Ratio'],
      ['Total Range Time (ns)', 'Total Range Time (ns)', 'Total Range Ratio'],
    ]) {
      assert.equal(row[pair], `${b[col]} / ${t[col]}`, pair);
      assert.equal(row[rat], ratio(b[col], t[col]), rat);
    }
  }
});

test('pccl_desync_summary_compare: each side is pccl_desync_summary of its report', () => {
  const sides = [base, slow].map((f) => new Map(csv(run(['stats', '-r', 'pccl_desync_summary', f])).map((r) => [r['Kernel Name'], r])));
  for (const row of compareRows('pccl_desync_summary_compare')) {
    const [b, t] = sides.map((s) => s.get(row['Base Kernel']));
    for (const [pair, col] of [
      ['Time (%)', 'Time (%)'],
      ['Count', 'Count'],
      ['Desync P90 (%)', 'Desync P90 (%)'],
      ['Desync Avg (%)', 'Desync Avg (%)'],
      ['Total Duration (ns)', 'Total Duration (ns)'],
      ['Total Overlap (ns)', 'Total Overlap (ns)'],
    ]) {
      assert.equal(row[pair], `${b[col]} / ${t[col]}`, pair);
    }
  }
});

// Per device: [first start, last end] and the union's length of its kernels, memcpys and memsets.
function deviceActivity(file) {
  const sql = ['HGGC_KERNEL', 'HGGC_MEMCPY', 'HGGC_MEMSET']
    .map((t) => `SELECT deviceId, start, end FROM ${t} WHERE end > start`)
    .join(' UNION ALL ');
  const r = spawnSync('sqlite3', ['-separator', ' ', file, sql], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  const byDevice = new Map();
  for (const line of r.stdout.trimEnd().split('\n')) {
    const [d, s, e] = line.split(' ').map(BigInt);
    if (!byDevice.has(d)) byDevice.set(d, []);
    byDevice.get(d).push([s, e]);
  }
  const out = new Map();
  for (const [d, spans] of byDevice) {
    spans.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    let active = 0n, curS = spans[0][0], curE = spans[0][1], last = 0n;
    for (const [s, e] of spans) {
      if (e > last) last = e;
      if (s > curE) {
        active += curE - curS;
        curS = s;
        curE = e;
      } else if (e > curE) curE = e;
    }
    active += curE - curS;
    out.set(String(d), { active, duration: last - spans[0][0] });
  }
  return out;
}

test('ppu_time_util_compare: per device, the union of its activities over its active range', () => {
  const [b, t] = [base, slow].map(deviceActivity);
  for (const row of compareRows('ppu_time_util_compare')) {
    const db = b.get(row['Base Device ID']), dt = t.get(row['Target Device ID']);
    assert.equal(row['PPU Active Time (ns)'], `${db.active} / ${dt.active}`);
    assert.equal(row['Duration (ns)'], `${db.duration} / ${dt.duration}`);
    assert.equal(row['In-Use (%)'], `${percent(db.active, db.duration)} / ${percent(dt.active, dt.duration)}`);
    assert.equal(row['Active Time Ratio'], ratio(db.active, dt.active));
  }
});

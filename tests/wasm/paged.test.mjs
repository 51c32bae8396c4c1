// A paged result through the bridge (runPaged, pageRows and the questions
// the viewer asks of it, wasm/engine_bindings.cc): each answer is checked
// against the native CLI's CSV of the same rule on the same report, read
// here with a small CSV parser, not against the engine itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCsv } from '../csv.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
const engine = await createAsysEngine({
  wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')),
});
const nativeAsys = path.join(root, 'build/native/asys');

// About 80,000 kernels: a view's answer spans two 65,536-row chunks.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-paged-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const report = path.join(dir, 'paged.asysrep');
{
  const r = spawnSync(nativeAsys, ['gen', '--seed', '3', '--scale', '20', '-o', report], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

// The CLI's CSV as rows of cell texts (tests/csv.mjs), Row# and the empty
// field after each line's last comma dropped.
function csvTable(rule) {
  const r = spawnSync(nativeAsys, ['stats', '-r', rule, report], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  const rows = parseCsv(r.stdout).map((cells) => cells.slice(1, -1));
  return { header: rows[0], rows: rows.slice(1) };
}

// A page's row as cell texts, the way the CSV writes them.
function pageRow(page, r) {
  const pool = new TextDecoder().decode(page.textPool).split('\0');
  return page.columns.map((c, i) => {
    const cells = page.cells[i];
    if (c.kind === 'int') {
      const v = new BigInt64Array(cells.slice(8 * r, 8 * r + 8).buffer)[0];
      return v === -(2n ** 63n) ? '-' : String(v);
    }
    if (c.kind === 'text') return cells[r] === 0xffffffff ? '-' : pool[cells[r]];
    return Number.isNaN(cells[r]) ? '-' : cells[r].toFixed(1);
  });
}

const rule = 'hggc_ppu_trace';
const expected = csvTable(rule);
const opened = engine.open([report]);
assert.equal(opened.ok, true, opened.error);
const col = (header) => expected.header.indexOf(header);

test('a result past the limit stays in the engine: no cells, its columns, rows and span names', () => {
  const whole = engine.runPaged(opened.report, rule, '{}', Number.POSITIVE_INFINITY);
  assert.equal(whole.ok, true, whole.error);
  assert.equal(whole.paged, false);
  assert.equal(whole.cells.length, expected.header.length);
  assert.equal(Number(whole.rowCount), expected.rows.length);
  assert.equal(engine.release(whole.result).ok, true);

  const paged = engine.runPaged(opened.report, rule, '{}', 1000);
  assert.equal(paged.ok, true, paged.error);
  assert.equal(paged.paged, true);
  assert.equal(paged.cells, undefined);
  assert.equal(Number(paged.rowCount), expected.rows.length);
  assert.deepEqual(paged.columns.map((c) => c.header), expected.header);
  assert.deepEqual(paged.spanNames, whole.spans.map((sp) => sp.name));
  assert.equal(engine.release(paged.result).ok, true);
});

test("a page brings its rows' spans: hgtx_kern_trace's range and activity", () => {
  const whole = engine.runPaged(opened.report, 'hgtx_kern_trace', '{}', Number.POSITIVE_INFINITY);
  const paged = engine.runPaged(opened.report, 'hgtx_kern_trace', '{}', 0);
  assert.equal(paged.paged, true);
  assert.deepEqual(paged.spanNames, ['HGTX Range', 'Device Activity']);
  const n = Number(whole.rowCount);
  const rows = [n - 1, 0, 5];
  const page = engine.pageRows(paged.result, Uint32Array.from(rows));
  assert.equal(page.ok, true, page.error);
  const int64 = (bytes, i) => new BigInt64Array(bytes.slice(8 * i, 8 * i + 8).buffer)[0];
  for (let w = 0; w < 2; w++) {
    rows.forEach((r, i) => {
      assert.equal(int64(page.spans[w].start, i), int64(whole.spans[w].start, r), `span ${w} start of row ${r}`);
      assert.equal(int64(page.spans[w].end, i), int64(whole.spans[w].end, r), `span ${w} end of row ${r}`);
    });
  }
  assert.equal(engine.release(whole.result).ok, true);
  assert.equal(engine.release(paged.result).ok, true);
});

test('pageRows answers the rows asked for, in their order, with a text pool of their own', () => {
  const paged = engine.runPaged(opened.report, rule, '{}', 0);
  const n = expected.rows.length;
  assert.ok(n > 65536 + 100, `${n} rows`);
  const rows = [n - 1, 0, 65535, 65536, 12345, 12345, 7, 65537];
  const page = engine.pageRows(paged.result, Uint32Array.from(rows));
  assert.equal(page.ok, true, page.error);
  assert.equal(Number(page.rowCount), rows.length);
  rows.forEach((r, i) => assert.deepEqual(pageRow(page, i), expected.rows[r], `row ${r}`));
  // Rows of a sorted order lie anywhere: 300 of them, spread over the table, a few per block.
  let seed = 7;
  const scattered = Array.from({ length: 300 }, () => (seed = (seed * 48271) % 2147483647) % n);
  const many = engine.pageRows(paged.result, Uint32Array.from(scattered));
  assert.equal(many.ok, true, many.error);
  scattered.forEach((r, i) => assert.deepEqual(pageRow(many, i), expected.rows[r], `scattered row ${r}`));
  // Each row's spans come with it.
  assert.equal(page.spans.length, paged.spanNames.length);
  const past = engine.pageRows(paged.result, Uint32Array.of(n));
  assert.equal(past.ok, false);
  assert.match(past.error, new RegExp(`^row ${n} is past the result's ${n} rows$`));
  assert.equal(engine.release(paged.result).ok, true);
});

test("searchRows, keyTotals, rowsWithKeys and columnTotals answer what the CLI's rows say, also part by part", () => {
  const paged = engine.runPaged(opened.report, rule, '{}', 0);
  const n = expected.rows.length;
  const name = col('Name');
  const duration = col('Duration (ns)');
  const device = col('Device');

  // A search of letters only matches the text cells that hold them, case ignored.
  const query = 'GeMm';
  const want = expected.rows.map((cells) =>
    cells.some((c, i) => paged.columns[i].kind === 'text' && c.toLowerCase().includes('gemm')) ? 1 : 0,
  );
  const masks = [];
  for (const [first, count] of [[0, 50000], [50000, n]]) {
    const part = engine.searchRows(paged.result, query, first, count, null);
    assert.equal(part.ok, true, part.error);
    masks.push(...part.mask);
  }
  assert.equal(masks.length, n);
  assert.ok(want.some((w) => w === 1) && want.some((w) => w === 0), 'the query matches some rows, not all');
  assert.deepEqual(masks, want);
  assert.equal(engine.searchRows(paged.result, '  ', 0, n, null).mask, null);

  // The viewer shows Start from the report's time zero: a search of digits matches the cell as shown
  // (Start - zero, worked out here from the CLI's rows), never the stored ns it no longer shows.
  const start = col('Start (ns)');
  const zero = BigInt(expected.rows[0][start]) - 17n;
  const shownRow = (cells) => cells.map((c, i) => (i === start && c !== '' && c !== '-' ? String(BigInt(c) - zero) : c));
  const digits = shownRow(expected.rows[Math.floor(n / 2)])[start].slice(-6);
  const numericHas = (cells, q) => cells.some((c, i) => paged.columns[i].kind !== 'text' && c.includes(q));
  const wantShown = expected.rows.map((cells) => (numericHas(shownRow(cells), digits) ? 1 : 0));
  const times = { zero: String(zero), columns: [start] };
  const shownMask = [...engine.searchRows(paged.result, digits, 0, n, times).mask];
  assert.ok(wantShown.some((w) => w === 1), `some row shows ${digits}`);
  assert.deepEqual(shownMask, wantShown);
  const stored = expected.rows[Math.floor(n / 2)][start];
  assert.deepEqual(
    [...engine.searchRows(paged.result, stored, 0, n, times).mask],
    expected.rows.map((cells) => (numericHas(shownRow(cells), stored) ? 1 : 0)),
  );
  assert.match(engine.searchRows(paged.result, '1', 0, n, { zero: '1e3', columns: [start] }).error, /a time zero must be whole ns/);

  // The pie: Duration summed per Name, and rows counted per Device.
  const sums = new Map();
  for (const cells of expected.rows) {
    const v = cells[duration] === '-' ? 0 : Number(cells[duration]);
    sums.set(cells[name], (sums.get(cells[name]) ?? 0) + v);
  }
  const totals = engine.keyTotals(paged.result, name, duration, 0, n);
  assert.equal(totals.ok, true, totals.error);
  const keys = new TextDecoder().decode(totals.keys).replace(/\0$/, '').split('\0');
  assert.deepEqual(new Map(keys.map((k, i) => [k, totals.values[i]])), sums);
  const counted = engine.keyTotals(paged.result, device, -1, 0, n);
  const devices = new TextDecoder().decode(counted.keys).replace(/\0$/, '').split('\0');
  const perDevice = new Map();
  for (const cells of expected.rows) perDevice.set(cells[device], (perDevice.get(cells[device]) ?? 0) + 1);
  assert.deepEqual(new Map(devices.map((k, i) => [k, counted.values[i]])), perDevice);

  // A slice's rows: the rows of the largest name, ascending.
  const top = [...sums].sort((a, b) => b[1] - a[1])[0][0];
  const slice = engine.rowsWithKeys(paged.result, name, [top], 0, n);
  assert.equal(slice.ok, true, slice.error);
  assert.deepEqual(Array.from(slice.rows), expected.rows.flatMap((cells, r) => (cells[name] === top ? [r] : [])));

  // Column sums: exact over every row (two ranges added), and over some rows.
  let all = 0n;
  for (const cells of expected.rows) if (cells[duration] !== '-') all += BigInt(cells[duration]);
  const a = engine.columnTotals(paged.result, [duration, name], null, '', 0, 40000);
  const b = engine.columnTotals(paged.result, [duration], null, '', 40000, n);
  assert.equal(a.ok && b.ok, true, a.error ?? b.error);
  assert.equal(a.totals.length, 1, 'a text column has no sum');
  assert.equal(BigInt(a.totals[0].digits) + BigInt(b.totals[0].digits), all);
  const some = engine.columnTotals(paged.result, [duration], Uint32Array.of(3, 70000, 3), '', 0, 0);
  const three = [3, 70000, 3].reduce((s, r) => s + BigInt(expected.rows[r][duration] === '-' ? 0 : expected.rows[r][duration]), 0n);
  assert.equal(BigInt(some.totals[0].digits), three);
  assert.equal(engine.release(paged.result).ok, true);
});

// `asys stats --format xlsx` and the bridge's renderXlsx, read back with an
// independent reader and compared cell by cell with the CSV of the same rule
// (xlsx_table.mjs): the header row, Int and Decimal1 cells as numbers, text
// and "-" cells as strings, one sheet named after the rule; text starting
// with '=', '+', '-' or '@' stays text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstDifference, readSheets } from './xlsx_table.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(import.meta.url);
const nativeAsys = path.join(root, 'build/native/asys');
const demo = path.join(root, 'public/demo/demo-base.asysrep');

function native(args, options = {}) {
  const r = spawnSync(nativeAsys, args, { maxBuffer: 1 << 30, ...options });
  assert.equal(r.status, 0, String(r.stderr));
  return r.stdout;
}

function assertSameTable(sheet, csv, json, label) {
  assert.equal(firstDifference(sheet, csv, json), null, label);
}

const RULES = ['hggc_api_sum', 'hggc_ppu_kern_sum', 'hggc_ppu_trace', 'ppu_op_sum', 'device_memory_usage_summary', 'osrt_sum'];

test('--output DIR/ writes one .xlsx per rule, each cell as the CSV has it', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-xlsx-'));
  try {
    const rules = RULES.flatMap((r) => ['-r', r]);
    native(['stats', ...rules, '--format', 'xlsx', '--output', `${dir}/`, demo]);
    for (const rule of RULES) {
      const sheets = await readSheets(fs.readFileSync(path.join(dir, `${rule}.xlsx`)));
      assert.equal(sheets.length, 1);
      assert.equal(sheets[0].name, rule.slice(0, 31));
      const csv = native(['stats', '-r', rule, demo], { encoding: 'utf8' });
      const json = native(['stats', '-r', rule, '--format', 'json', demo], { encoding: 'utf8' });
      assertSameTable(sheets[0], csv, json, rule);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('text that looks like a formula stays text', async () => {
  const report = path.join(os.tmpdir(), `asys-xlsx-${process.pid}.asysrep`);
  const sql = fs.readFileSync(path.join(root, 'tests/golden/fixtures/kernels.sql'), 'utf8') +
    "\nUPDATE StringIds SET value = '=SUM(A1:A2)' WHERE id = 1;" +
    "\nUPDATE StringIds SET value = '+1' WHERE id = 2;" +
    "\nUPDATE StringIds SET value = '-x' WHERE id = 3;" +
    "\nUPDATE StringIds SET value = '@y' WHERE id = 4;";
  const made = spawnSync('sqlite3', [report], { input: sql, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  try {
    // Standard output redirected (a pipe here): the workbook's bytes.
    const bytes = native(['stats', '-r', 'hggc_api_sum', '--format', 'xlsx', report]);
    const [sheet] = await readSheets(bytes);
    const names = [];
    sheet.getColumn(sheet.getRow(1).values.indexOf('Name')).eachCell((cell) => names.push(cell.value));
    for (const text of ['=SUM(A1:A2)', '+1', '-x', '@y']) assert.ok(names.includes(text), `${text} in ${names}`);
    const csv = native(['stats', '-r', 'hggc_api_sum', report], { encoding: 'utf8' });
    const json = native(['stats', '-r', 'hggc_api_sum', '--format', 'json', report], { encoding: 'utf8' });
    assertSameTable(sheet, csv, json, 'formula-like names');

    // The WebAssembly engine's renderXlsx: the same cells.
    const createAsysEngine = require(path.join(root, 'build/wasm/asys_engine_node.cjs'));
    const engine = await createAsysEngine({ wasmBinary: fs.readFileSync(path.join(root, 'build/wasm/asys_engine_node.wasm')) });
    const opened = engine.open([report]);
    assert.equal(opened.ok, true, opened.error);
    const run = engine.run(opened.report, 'hggc_api_sum', '{}');
    assert.equal(run.ok, true, run.error);
    const rendered = engine.renderXlsx(run.result, 'hggc_api_sum');
    assert.equal(rendered.ok, true, rendered.error);
    const [fromWasm] = await readSheets(Buffer.from(rendered.bytes));
    assert.equal(fromWasm.name, 'hggc_api_sum');
    assertSameTable(fromWasm, csv, json, 'renderXlsx');
    assert.match(engine.render(run.result, 'xlsx').error, /renderXlsx/);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test('integers past 2^53 are written as the text of their exact digits', async () => {
  // edge.sql's calls start at 1700000000000000000 + 10000 i: a double has a 256 ns step there.
  const report = path.join(os.tmpdir(), `asys-xlsx-edge-${process.pid}.asysrep`);
  const sql = fs.readFileSync(path.join(root, 'tests/golden/fixtures/edge.sql'), 'utf8');
  const made = spawnSync('sqlite3', [report], { input: sql, encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  try {
    const [sheet] = await readSheets(native(['stats', '-r', 'hggc_api_trace', '--format', 'xlsx', report]));
    const csv = native(['stats', '-r', 'hggc_api_trace', report], { encoding: 'utf8' });
    const json = native(['stats', '-r', 'hggc_api_trace', '--format', 'json', report], { encoding: 'utf8' });
    assertSameTable(sheet, csv, json, 'edge.sql');
    const start = sheet.getRow(1).values.indexOf('Start (ns)');
    assert.equal(sheet.getRow(2).getCell(start).value, csv.split('\n')[1].split(',')[start - 1]);
    assert.match(String(sheet.getRow(2).getCell(start).value), /^17000000000000\d{5}$/);
  } finally {
    fs.rmSync(report, { force: true });
  }
});

test('a terminal gets the column format; several rules cannot share redirected output', () => {
  // util-linux script(1) runs the CLI with standard output on a pseudo-terminal.
  const tty = spawnSync('script', ['-qec', `'${nativeAsys}' stats -r hggc_api_sum --format xlsx '${demo}'`, '/dev/null'], {
    encoding: 'utf8',
  });
  assert.equal(tty.status, 0, tty.stderr);
  const column = native(['stats', '-r', 'hggc_api_sum', '--format', 'column', demo], { encoding: 'utf8' });
  assert.equal(tty.stdout.replace(/\r\n/g, '\n'), column);

  const r = spawnSync(nativeAsys, ['stats', '-r', 'hggc_api_sum', '-r', 'osrt_sum', '--format', 'xlsx', demo], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 2);
  assert.equal(r.stderr, 'asys stats: --format xlsx: one workbook per rule: give --output DIR/ for several rules\n');
});

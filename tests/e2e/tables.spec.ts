// The result table's search box (search and filter modes, stats and compare
// views), the regex options checked by the engine as they are typed, and
// Export XLSX, against the native CLI: its CSV (which rows contain a query;
// every cell of the workbook) and its error line for a bad regex.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  ASYS,
  asysOut,
  DEMO_BASE,
  DEMO_SLOW,
  openAppForEachTest,
  openDemo,
  parseCsv,
  ROOT,
  selectRule,
  tableRows,
  waitIdle,
  waitResult,
} from './helpers';
import { firstDifference, readSheets } from '../wasm/xlsx_table.mjs';


function cliRows(spec: string, ...reports: string[]): string[][] {
  return parseCsv(asysOut(['stats', '-r', spec, ...reports]));
}

/** How many of the CLI's rows have a cell (Row# aside) containing `q`, ignoring case. */
function matching(rows: string[][], q: string): number {
  const low = q.toLowerCase();
  return rows.slice(1).filter((r) => r.slice(1).some((f) => f.toLowerCase().includes(low))).length;
}

/** A count as the viewer shows it: thin spaces between digit groups. */
const shown = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

openAppForEachTest();

async function search(page: Page, text: string, mode: 'search' | 'filter') {
  await page.getByTestId('table-search-mode').selectOption(mode);
  await page.getByTestId('table-search-input').fill(text);
}

test('search walks the matches of a trace of thousands of rows; filter keeps them only', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'hggc_ppu_trace')).toBe('ready');
  const cli = cliRows('hggc_ppu_trace', DEMO_BASE);
  const total = cli.length - 1;
  const q = 'GEMM_NOPAD';
  const n = matching(cli, q);
  expect(n).toBeGreaterThan(2);
  expect(n).toBeLessThan(total);

  await search(page, q, 'search');
  const count = page.getByTestId('table-search-count');
  await expect(count).toHaveText(`1 of ${shown(n)}`);
  const current = page.locator('[data-testid=result-table] .rows .tr.current-match');
  await expect(current).toHaveCount(1);
  await expect(current).toContainText(/gemm_nopad/i);
  await page.getByTestId('table-search-input').press('Enter');
  await expect(count).toHaveText(`2 of ${shown(n)}`);
  // Back twice: past the first to the last match, far down the table, scrolled to.
  await page.getByTestId('table-search-input').press('Shift+Enter');
  await page.getByTestId('table-search-input').press('Shift+Enter');
  await expect(count).toHaveText(`${shown(n)} of ${shown(n)}`);
  await expect(current).toHaveCount(1);
  await expect(current).toBeInViewport();
  // The last match in the rule's order is the CLI's last row containing the query.
  const lastRow = cli.slice(1).filter((r) => r.slice(1).some((f) => f.toLowerCase().includes(q.toLowerCase()))).at(-1)!;
  await expect(current).toHaveAttribute('data-row', String(Number(lastRow[0]) - 1));
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(total)} rows`);

  await search(page, q, 'filter');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(n)} of ${shown(total)} rows`);
  const names = await tableRows(page).allInnerTexts();
  expect(names.length).toBeGreaterThan(0);
  for (const row of names) expect(row.toLowerCase()).toContain(q.toLowerCase());

  // A number as shown (thin group separators) is found by its digits.
  const duration = cli[1][2];
  await search(page, duration, 'filter');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(matching(cli, duration))} of ${shown(total)} rows`);
  await page.getByTestId('table-search-input').press('Escape');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(total)} rows`);
});

test('the compare table filters by its cells as displayed, and exports its workbook', async ({ page }) => {
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  const rule = 'ppu_kernel_summary_compare';
  expect(await selectRule(page, rule)).toBe('ready');
  const cli = cliRows(rule, DEMO_BASE, DEMO_SLOW);
  const n = matching(cli, 'Gemm');
  expect(n).toBeGreaterThan(0);
  await search(page, 'Gemm', 'filter');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(n)} of ${shown(cli.length - 1)} rows`);
  await search(page, 'Gemm', 'search');
  await expect(page.getByTestId('table-search-count')).toHaveText(`1 of ${shown(n)}`);
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(cli.length - 1)} rows`);
  // Its workbook: every cell as the CLI's CSV of the compare rule.
  await expectXlsxLikeCli(page, `demo-base_vs_demo-slow_${rule}.xlsx`, rule, ['-r', rule, DEMO_BASE, DEMO_SLOW]);
});

test("a regex option is checked as typed: the CLI's error beside the field, and the rule is not run", async ({ page }) => {
  await openDemo(page);
  const rule = 'hgtx_kern_sum';
  expect(await selectRule(page, rule)).toBe('ready');
  const tables = () => page.evaluate(() => performance.getEntriesByName('asys:table').length);
  const before = await tables();
  const field = page.locator('[data-testid=setting-range-include] input');
  await field.fill('(x');
  let cliError = '';
  try {
    execFileSync(ASYS, ['stats', '-r', `${rule}:range-include=(x`, DEMO_BASE], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    cliError = String((e as { stderr: string }).stderr).trim();
  }
  expect(cliError).toMatch(/position 2/);
  // The CLI's line without its "asys stats: " prefix.
  await expect(page.locator('[data-testid=setting-range-include] .setting-error')).toHaveText(cliError.replace(/^asys stats: /, ''));
  await waitIdle(page);
  await page.waitForTimeout(500);
  expect(await tables()).toBe(before);

  // Fixed, it runs, and the table is the CLI's.
  await field.fill('(x)|fwd');
  await expect(page.locator('[data-testid=setting-range-include] .setting-error')).toHaveCount(0);
  expect(await waitResult(page, rule)).toBe('ready');
  const cli = cliRows(`${rule}:range-include=(x)|fwd`, DEMO_BASE);
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(cli.length - 1)} row${cli.length === 2 ? '' : 's'}`);
  expect(await tables()).toBe(before + 1);
});

/** The workbook Export XLSX downloads, against the CLI's CSV and JSON of the same rule. */
async function expectXlsxLikeCli(page: Page, fileName: string, sheetName: string, cliArgs: string[]) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(download.suggestedFilename()).toBe(fileName);
  const sheets = await readSheets(readFileSync(await download.path()));
  expect(sheets.map((s) => s.name)).toEqual([sheetName]);
  const csv = asysOut(['stats', ...cliArgs]);
  const json = asysOut(['stats', '--format', 'json', ...cliArgs]);
  expect(firstDifference(sheets[0], csv, json)).toBeNull();
  await waitIdle(page);
}

test('Export XLSX: the workbook holds every cell of the CSV, numbers as numbers', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await expectXlsxLikeCli(page, 'demo-base_hggc_ppu_kern_sum.xlsx', 'hggc_ppu_kern_sum', ['-r', 'hggc_ppu_kern_sum', DEMO_BASE]);
});

test('Export XLSX keeps text that looks like a formula as text', async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-xlsx-'));
  try {
    const report = path.join(dir, 'formulas.asysrep');
    const sql =
      readFileSync(path.join(ROOT, 'tests/golden/fixtures/kernels.sql'), 'utf8') +
      "\nUPDATE StringIds SET value = '=HYPERLINK(\"x\")' WHERE id = 1;\nUPDATE StringIds SET value = '@SUM(1)' WHERE id = 2;";
    execFileSync('sqlite3', [report], { input: sql });
    await page.getByTestId('file-input').first().setInputFiles(report);
    await expect(page.getByTestId('summary-file')).toHaveText('formulas.asysrep');
    await waitIdle(page);
    expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');
    await expectXlsxLikeCli(page, 'formulas_hggc_api_sum.xlsx', 'hggc_api_sum', ['-r', 'hggc_api_sum', report]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

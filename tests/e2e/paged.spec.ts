// A paged result in the viewer: with ?pagedRows=100 every result of more
// than 100 rows stays in the engine, as a ten-million-row trace does at the
// default limit, and the table, its search, sort, pie, sums and export are
// answered by the engine a page or a part at a time. Checked against the
// native CLI's CSV of the same rule.
import { expect, test, type Page } from '@playwright/test';
import {
  asysOut,
  columnTexts,
  DEMO_BASE,
  exportedCsv,
  headers,
  openAppForEachTest,
  openDemo,
  parseCsv,
  parseShown,
  selectRule,
  tableRows,
  waitIdle,
} from './helpers';

const shown = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
const cli = (rule: string) => parseCsv(asysOut(['stats', '-r', rule, DEMO_BASE]));

openAppForEachTest({ demo: true, address: './?pagedRows=100' });

async function pagedTrace(page: Page) {
  expect(await selectRule(page, 'hggc_ppu_trace')).toBe('ready');
  const rows = cli('hggc_ppu_trace');
  expect(rows.length - 1).toBeGreaterThan(1000);
  // The first rows, as the CLI writes them.
  await expect(tableRows(page).first()).toContainText(rows[1][20]);
  return rows;
}

test('a paged trace shows its rows from the engine, scrolls to its end and sorts there', async ({ page }) => {
  const rows = await pagedTrace(page);
  const total = rows.length - 1;
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(total)} rows`);
  const hs = await headers(page);
  expect(hs.slice(1)).toEqual(rows[0].slice(1, -1)); // the CSV's lines end with a comma
  const starts = (await columnTexts(page, 'Start (ns)')).map(parseShown);
  expect(starts.slice(0, 5)).toEqual(rows.slice(1, 6).map((r) => Number(r[1])));

  // The last rows, after a scroll to the bottom.
  await page.getByTestId('result-table').evaluate((el) => (el.scrollTop = el.scrollHeight));
  const last = page.locator(`[data-testid=result-table] .rows .tr[data-row="${total - 1}"]`);
  await expect(last).toContainText(shown(Number(rows[total][1])));

  // Sorted by Duration, descending, in the engine: the CLI's largest duration first.
  await page.getByTestId('th-1').click(); // numbers sort descending first
  await expect(page.getByTestId('result-table')).toHaveAttribute('data-sort', '1:desc');
  const largest = Math.max(...rows.slice(1).map((r) => Number(r[2])));
  await expect.poll(async () => (await columnTexts(page, 'Duration (ns)')).map(parseShown)[0]).toBe(largest);
});

test("a paged trace's search, filter, sums and export are the engine's, and the CLI's", async ({ page }) => {
  const rows = await pagedTrace(page);
  const total = rows.length - 1;
  const q = 'GEMM_NOPAD';
  const n = rows.slice(1).filter((r) => r.slice(1).some((f) => f.toLowerCase().includes(q.toLowerCase()))).length;
  expect(n).toBeGreaterThan(2);
  await page.getByTestId('table-search-mode').selectOption('search');
  await page.getByTestId('table-search-input').fill(q);
  await expect(page.getByTestId('table-search-count')).toHaveText(`1 of ${shown(n)}`);
  await page.getByTestId('table-search-mode').selectOption('filter');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(n)} of ${shown(total)} rows`);
  for (const text of await tableRows(page).allInnerTexts()) if (text.trim()) expect(text.toLowerCase()).toContain(q.toLowerCase());
  await page.getByTestId('table-search-input').press('Escape');
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(total)} rows`);

  // The export: the CLI's bytes, made in parts.
  const { lines } = await exportedCsv(page);
  expect(lines).toEqual(asysOut(['stats', '-r', 'hggc_ppu_trace', DEMO_BASE]).trimEnd().split('\n'));
});

test("a paged summary's sums are the engine's: of every row, then of the rows selected", async ({ page }) => {
  await page.goto('./?pagedRows=10');
  await waitIdle(page);
  await openDemo(page);
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const rows = cli('hggc_ppu_kern_sum');
  expect(rows.length - 1).toBeGreaterThan(10);
  await expect(page.getByTestId('paged-loading')).toHaveCount(0);
  const at = (await headers(page)).indexOf('Total Time (ns)');
  const cell = page.getByTestId('sums-row').locator(`> :nth-child(${at + 1})`);
  const all = rows.slice(1).reduce((s, r) => s + BigInt(r[at]), 0n);
  await expect(cell).toHaveText(shown(Number(all)));
  await tableRows(page).nth(2).click();
  await expect(page.getByTestId('selection')).toContainText('1 selected');
  await expect(cell).toHaveText(shown(Number(rows[3][at])));
  await tableRows(page).nth(4).click({ modifiers: ['Control'] });
  await expect(cell).toHaveText(shown(Number(BigInt(rows[3][at]) + BigInt(rows[5][at]))));
});

test("a paged trace's pie is summed by the engine and its slice filters the rows", async ({ page }) => {
  const rows = await pagedTrace(page);
  if ((await page.getByTestId('toggle-chart').getAttribute('aria-pressed')) !== 'true') {
    await page.getByTestId('toggle-chart').click();
  }
  await expect(page.getByTestId('pie-summing')).toHaveCount(0);
  await expect(page.getByTestId('pie-chart')).toHaveAttribute('data-rendered', 'true');
  // The largest Name by summed Duration: its rows are what its slice keeps.
  await page.getByTestId('pie-key').selectOption('Name');
  const sums = new Map<string, number>();
  for (const r of rows.slice(1)) sums.set(r[20], (sums.get(r[20]) ?? 0) + Number(r[2]));
  const [top] = [...sums].sort((a, b) => b[1] - a[1])[0];
  const n = rows.slice(1).filter((r) => r[20] === top).length;
  const slice = page.getByTestId('legend-item').filter({ has: page.locator('.legend-name', { hasText: top }) }).first();
  await slice.click();
  await expect(page.getByTestId('table-filter')).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(n)} of ${shown(rows.length - 1)} rows`);
  for (const name of await columnTexts(page, 'Name')) expect(name).toBe(top);
});

test('a result within the limit is answered whole, as before', async ({ page }) => {
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const rows = cli('hggc_ppu_kern_sum');
  expect(rows.length - 1).toBeLessThanOrEqual(100);
  await expect(page.getByTestId('row-count')).toHaveText(`${shown(rows.length - 1)} rows`);
  await expect(tableRows(page).first()).toContainText(rows[1][rows[0].length - 2]);
  await expect(page.getByTestId('paged-loading')).toHaveCount(0);
});

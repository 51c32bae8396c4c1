// The HGTX <-> PPU rules and the expert rules in the viewer: their generated
// settings (an inverted graph-mapping switch, regex lists, range mode), their
// pie charts, and the Expert rules topic with its `asys analyze` command line.
import { expect, test } from '@playwright/test';
import { columnTexts, openDemo, parseShown, selectRule, tableRows, waitResult, openAppForEachTest } from './helpers';

openAppForEachTest();

test('the four HGTX <-> PPU rules give rows with the documented columns and pies', async ({ page }) => {
  await openDemo(page);
  for (const [rule, column] of [
    ['hgtx_kern_sum', 'Kern Inst'],
    ['hgtx_kern_trace', 'Kernel Exec ID'],
    ['hgtx_ppu_proj_sum', 'Proj Active Time (ns)'],
    ['hgtx_ppu_proj_trace', 'PPU Active Time (ns)'],
  ]) {
    expect(await selectRule(page, rule), rule).toBe('ready');
    expect(await tableRows(page).count(), rule).toBeGreaterThan(0);
    await expect(page.getByTestId('result-table').locator('.thead')).toContainText(column);
    await expect(page.locator('[data-testid=pie-chart] canvas'), rule).toBeVisible();
  }
});

test('unticking HGTX graph node mapping runs the rule with no-graph-mapping', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hgtx_kern_trace');
  const count = async () => Number((await page.getByTestId('row-count').innerText()).replace(/\D/g, ''));
  const withGraphs = await count();
  const mapping = page.getByTestId('setting-no-graph-mapping').locator('input');
  await expect(mapping).toBeChecked(); // mapping is on by default
  await expect(page.locator('.cli-spec')).not.toContainText('no-graph-mapping');
  await mapping.uncheck();
  await expect(page.locator('.cli-spec')).toContainText('-r hgtx_kern_trace:no-graph-mapping');
  expect(await waitResult(page, 'hgtx_kern_trace')).toBe('ready');
  // The demo's optimizer steps are graph launches: their capture ranges lose them.
  expect(await count()).toBeLessThan(withGraphs);
  // API Start is "-" only for pairs made through a graph node: none are left.
  expect((await columnTexts(page, 'API Start (ns)')).filter((s) => s.trim() === '-')).toEqual([]);
});

test('a range filter and the full range mode change In-Use', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hgtx_ppu_proj_sum');
  const inUse = async () => (await columnTexts(page, 'In-Use (%)')).map(parseShown);
  const active = await inUse();
  await page.getByTestId('setting-range-mode').locator('select').selectOption('full');
  await expect(page.locator('.cli-spec')).toContainText('range-mode=full');
  expect(await waitResult(page, 'hgtx_ppu_proj_sum')).toBe('ready');
  // The capture range is longer than the PPU active range: every share shrinks.
  const full = await inUse();
  expect(full[0]).toBeLessThan(active[0]);

  await page.getByTestId('setting-range-include').locator('input').fill('^(forward|backward)$');
  expect(await waitResult(page, 'hgtx_ppu_proj_sum')).toBe('ready');
  expect((await columnTexts(page, 'Range')).sort()).toEqual(['backward', 'forward']);
});

test('the expert rules sit in their own topic and run as asys analyze', async ({ page }) => {
  await openDemo(page);
  await expect(page.getByTestId('rule-list')).toContainText('Expert rules');
  expect(await selectRule(page, 'ppu_gaps')).toBe('ready');
  await expect(page.locator('.cli-spec')).toHaveText(/^asys analyze -r ppu_gaps/);
  // The demo's blocking checkpoint idles every device for more than 500 ms.
  const durations = (await columnTexts(page, 'Duration (ns)')).map(parseShown);
  expect(durations.length).toBeGreaterThanOrEqual(4);
  for (const d of durations) expect(d).toBeGreaterThan(500e6);
  expect(await selectRule(page, 'ppu_time_util')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);
  for (const u of (await columnTexts(page, 'In-Use (%)')).map(parseShown)) expect(u).toBeLessThan(50);
});

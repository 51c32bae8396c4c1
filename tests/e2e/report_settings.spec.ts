// Each report's settings are its own (issue 23): device=2 set on the demo does
// not follow onto a one-GPU Kineto trace, and comes back with the demo's tab;
// a device a report lacks is said, never a silent empty table. And the
// tables group digits while the CSV download and copied cells are plain.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { columnTexts, dropFile, exportedCsv, openAppForEachTest, openDemo, parseCsv, ROOT, selectRule, tableRows, waitIdle, waitResult } from './helpers';

openAppForEachTest();

// A one-GPU (device 0) Kineto trace: two kernels, 80 000 and 30 000 ns.
const KINETO = path.join(ROOT, 'tests/fuzz/seeds/kineto_import/minimal.json');
const cli = (page: Page) => page.locator('.cli-spec').textContent();
const chip = (page: Page, id: number | 'all') =>
  id === 'all'
    ? page.getByTestId('setting-device').locator('.id-picker .chip').first()
    : page.getByTestId('setting-device').locator(`.id-picker .chip[data-id="${id}"]`);

async function openKineto(page: Page): Promise<void> {
  await dropFile(page, 'minimal.json', readFileSync(KINETO), 'application/json');
  await expect(page.getByTestId('summary-file')).toHaveText('minimal.json');
  await waitIdle(page);
}

test('device=2 on the demo stays the demo\'s: the Kineto trace has its own settings, the demo\'s come back', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  await chip(page, 2).click();
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(page)).toBe('asys stats -r hggc_ppu_kern_sum:device=2');
  await expect(chip(page, 2)).toHaveAttribute('aria-pressed', 'true');
  // Device 2's top kernel (asys stats -r hggc_ppu_kern_sum:device=2 demo-base.asysrep).
  expect((await columnTexts(page, 'Total Time (ns)'))[0]).toBe('65\u202f401\u202f265');

  await openKineto(page);
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(page)).toBe('asys stats -r hggc_ppu_kern_sum');
  await expect(chip(page, 'all')).toHaveAttribute('aria-pressed', 'true');
  await expect(chip(page, 0)).toHaveAttribute('aria-pressed', 'false');
  await expect(chip(page, 2)).toHaveCount(0);
  await expect(page.getByTestId('setting-missing-device')).toHaveCount(0);
  await expect(tableRows(page)).toHaveCount(2);
  expect(await columnTexts(page, 'Total Time (ns)')).toEqual(['80\u202f000', '30\u202f000']);
  // A setting of the trace is the trace's.
  await page.getByTestId('setting-rows').locator('input').fill('1');
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await expect(tableRows(page)).toHaveCount(1);

  // Back to the demo: device=2 again, rows at its default; its table as left.
  await page.getByTestId('report-tab').filter({ hasText: 'demo-base.asysrep' }).locator('.report-tab-name').click();
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(page)).toBe('asys stats -r hggc_ppu_kern_sum:device=2');
  await expect(chip(page, 2)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('setting-rows').locator('input')).toHaveValue('-1');
  expect((await columnTexts(page, 'Total Time (ns)'))[0]).toBe('65\u202f401\u202f265');

  // And the trace once more: rows=1, its own.
  await page.getByTestId('report-tab').filter({ hasText: 'minimal.json' }).locator('.report-tab-name').click();
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(page)).toBe('asys stats -r hggc_ppu_kern_sum:rows=1');
});

test('a device the report does not have is marked and said, not a silent "No rows"', async ({ page }) => {
  // A link made on a four-device report, opened with the one-GPU trace.
  await page.goto('./#v=1&view=stats&rule=hggc_ppu_kern_sum&o.device=2&report.0=minimal.json&base=0&lang=en');
  await waitIdle(page);
  await openKineto(page);
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(page)).toBe('asys stats -r hggc_ppu_kern_sum:device=2');
  const missing = chip(page, 2);
  await expect(missing).toHaveAttribute('data-missing', 'true');
  await expect(missing).toHaveAttribute('aria-pressed', 'true');
  await expect(missing).toHaveAttribute('title', 'Not in this report: click to drop it');
  await expect(page.getByTestId('setting-missing-device')).toHaveText(
    '2: not in this report, so no rows come from it. Pick one it has, or All.',
  );
  // Dropping it: the notice goes, the trace's kernels show.
  await missing.click();
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await expect(page.getByTestId('setting-missing-device')).toHaveCount(0);
  await expect(tableRows(page)).toHaveCount(2);
});

test('the same notice in Chinese', async ({ page }) => {
  await page.goto('./#v=1&view=stats&rule=hggc_ppu_kern_sum&o.device=2&report.0=minimal.json&base=0&lang=zh');
  await waitIdle(page);
  await openKineto(page);
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await expect(page.getByTestId('setting-missing-device')).toHaveText(
    '2：本报告中没有，因此不会产生任何行。请选择本报告中有的值，或选择“全部”。',
  );
  await expect(chip(page, 2)).toHaveAttribute('title', '本报告中没有：点击移除');
});

test('the table groups digits (the same under lang=zh), the CSV download and copied cells are plain', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  const shown = (await columnTexts(page, 'Total Time (ns)'))[0];
  // asys stats -r hggc_ppu_kern_sum demo-base.asysrep: row 1's Total Time is 197855219.
  expect(shown).toBe('197\u202f855\u202f219');
  const { lines } = await exportedCsv(page);
  const rows = parseCsv(lines.join('\n'));
  expect(rows[0][2]).toBe('Total Time (ns)');
  expect(rows[1][2]).toBe('197855219');
  expect(lines.join('\n')).not.toContain('\u202f');

  // A copied cell: plain digits, as the CSV.
  const copied = await page.evaluate((text) => {
    const cell = [...document.querySelectorAll('[data-testid=result-table] .rows .tr [role=cell]')].find((c) => c.textContent === text)!;
    const range = document.createRange();
    range.selectNodeContents(cell);
    const sel = window.getSelection()!;
    sel.removeAllRanges();
    sel.addRange(range);
    const dt = new DataTransfer();
    cell.dispatchEvent(new ClipboardEvent('copy', { clipboardData: dt, bubbles: true, cancelable: true }));
    return dt.getData('text/plain');
  }, shown);
  expect(copied).toBe('197855219');

  // Under lang=zh the same grouping.
  await page.evaluate(() => localStorage.setItem('asys:lang', 'zh'));
  await page.goto('./?demo=base#v=1&view=stats&rule=hggc_ppu_kern_sum&report.0=demo-base.asysrep&base=0&lang=zh');
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect((await columnTexts(page, 'Total Time (ns)'))[0]).toBe('197\u202f855\u202f219');
});

test('a compare rule\'s settings are the compare view\'s: a swap keeps them', async ({ page }) => {
  const RULE = 'ppu_kernel_summary_compare';
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  expect(await selectRule(page, RULE)).toBe('ready');
  await page.getByTestId('setting-matched-only').locator('input').check();
  expect(await waitResult(page, RULE)).toBe('ready');
  expect(await cli(page)).toContain(`${RULE}:matched-only`);
  await page.getByTestId('swap').click();
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-slow/);
  expect(await waitResult(page, RULE)).toBe('ready');
  await expect(page.getByTestId('setting-matched-only').locator('input')).toBeChecked();
  expect(await cli(page)).toContain(`${RULE}:matched-only`);
});

// The PCCL rules in the viewer: the desync trace and summary and the
// operator summary open on the demo with rows and pies (the trace's pie
// counts communications per last process or device), the PPU Devices
// setting narrows pccl_op_sum to one device, and the DLRM ranks' NCCL
// collectives (real data, skipped when absent) give the CLI's figures.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { columnTexts, openDemo, REAL_DATA, selectRule, tableRows, waitIdle, waitResult, openAppForEachTest } from './helpers';

const DLRM_DIR = path.join(REAL_DATA, 'kineto/param/dlrm_kineto');

openAppForEachTest();

test('the three PCCL rules give rows with the documented columns and pies', async ({ page }) => {
  await openDemo(page);
  for (const [rule, column] of [
    ['pccl_desync_trace', 'Desync Rate (%)'],
    ['pccl_desync_summary', 'Desync P90 (%)'],
    ['pccl_op_sum', 'Trans Bandwidth (B/s)'],
  ]) {
    expect(await selectRule(page, rule), rule).toBe('ready');
    expect(await tableRows(page).count(), rule).toBeGreaterThan(0);
    await expect(page.getByTestId('result-table').locator('.thead')).toContainText(column);
    await expect(page.locator('[data-testid=pie-chart] canvas'), rule).toBeVisible();
  }
});

test('the desync trace pie counts communications per last process or device', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'pccl_desync_trace');
  await expect(page.locator('.pie-caption')).toHaveText('Number of rows');
  await page.getByTestId('pie-key').selectOption('Last Device');
  // The demo has four PPUs: at most four slices, and their counts add up to the rows.
  const rows = (await columnTexts(page, 'Last Device')).length;
  const legend = page.getByTestId('legend-item');
  await expect(legend.first()).toBeVisible();
  expect(await legend.count()).toBeLessThanOrEqual(4);
  const devices = new Set(await columnTexts(page, 'Last Device'));
  expect(await legend.count()).toBe(devices.size);
  expect(rows).toBeGreaterThan(0);
});

test('PPU Devices narrows pccl_op_sum to one device', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'pccl_op_sum');
  expect(new Set(await columnTexts(page, 'Device Mask'))).toEqual(new Set(['0xF']));
  const device0 = page.getByTestId('setting-device').locator('button[data-id="0"]');
  await device0.click();
  await expect(page.locator('.cli-spec')).toContainText('-r pccl_op_sum:device=0');
  expect(await waitResult(page, 'pccl_op_sum')).toBe('ready');
  // Device 0 alone: every operator's mask is its bit.
  expect(new Set(await columnTexts(page, 'Device Mask'))).toEqual(new Set(['0x1']));
  expect(await tableRows(page).count()).toBeGreaterThan(0);
});

test('the DLRM rank traces: the first AllReduce is 36.1 % out of step, rank 2 last', async ({ page }) => {
  const ranks = existsSync(DLRM_DIR)
    ? readdirSync(DLRM_DIR)
        .filter((f) => f.endsWith('.json.gz'))
        .sort()
        .map((f) => path.join(DLRM_DIR, f))
    : [];
  // The figures are those of ranks 0-3 (tests/unit/pccl_real_test.cc works them out from the JSON).
  test.skip(ranks.length !== 4, `the test needs exactly the 4 DLRM rank traces 0-3 (${ranks.length} in ${DLRM_DIR})`);
  await page.getByTestId('file-input').first().setInputFiles(ranks);
  await waitIdle(page);
  expect(await selectRule(page, 'pccl_desync_trace')).toBe('ready');
  expect(await tableRows(page).count()).toBe(8);
  // Found by its Duration: the table shows int64 cells as doubles, so the epoch
  // start (1694128201436240000 ns, beyond 2^53) is not exact on screen.
  const durations = await columnTexts(page, 'Duration (ns)');
  const row = durations.findIndex((s) => s.replace(/\D/g, '') === '310000');
  expect(row).toBeGreaterThanOrEqual(0);
  expect((await columnTexts(page, 'Desync Rate (%)'))[row]).toBe('36.1');
  expect((await columnTexts(page, 'Last Device'))[row]).toBe('2');
  expect(await selectRule(page, 'pccl_op_sum')).toBe('ready');
  const names = await columnTexts(page, 'OP Name');
  const op = names.findIndex((n) => n.includes('c:394241,'));
  expect(op).toBeGreaterThanOrEqual(0);
  expect((await columnTexts(page, 'Trans Bandwidth (B/s)'))[op].replace(/\D/g, '')).toBe('13937813131');
});

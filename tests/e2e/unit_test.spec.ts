// ppu_op_unit_test in the viewer: the table lists the tests, and the
// generated Python downloads from the rule's result view, byte for byte
// the file the CLI writes for the same report.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ASYS, columnTexts, DEMO_BASE, guardNetwork, openDemo, selectRule, waitIdle } from './helpers';


let foreign: string[] = [];
test.beforeEach(async ({ page }) => {
  foreign = guardNetwork(page);
  await page.goto('./');
  await waitIdle(page);
  await openDemo(page);
});
test.afterEach(() => {
  expect(foreign, 'requests that left localhost').toEqual([]);
});

test('ppu_op_unit_test: the Download button saves the CLI\'s file, byte for byte', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'asys-unit-test-'));
  try {
    // The CLI writes the table to DIR/demo-base_ppu_op_unit_test.csv and the tests beside it.
    execFileSync(ASYS, ['stats', '-r', 'ppu_op_unit_test', '--output', `${dir}/demo-base`, DEMO_BASE]);
    const cliFile = readFileSync(path.join(dir, 'demo-base_ppu_op_unit_test.py'));
    const cliCsv = readFileSync(path.join(dir, 'demo-base_ppu_op_unit_test.csv'), 'utf8');
    const cliTests = cliCsv.trimEnd().split('\n').slice(1).map((line) => line.split(',')[1].replace(/"/g, ''));

    expect(await selectRule(page, 'ppu_op_unit_test')).toBe('ready');
    expect(await columnTexts(page, 'Test')).toEqual(cliTests);
    const button = page.getByTestId('download-file');
    await expect(button).toHaveText('Download demo-base_ppu_op_unit_test.py');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe('demo-base_ppu_op_unit_test.py');
    const viewerFile = readFileSync(await download.path());
    expect(viewerFile.length).toBe(cliFile.length);
    expect(viewerFile.equals(cliFile)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rules without files show no Download button', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_sum')).toBe('ready');
  await expect(page.getByTestId('export-csv')).toBeVisible();
  await expect(page.getByTestId('download-file')).toHaveCount(0);
});

// The compare view end to end: the demo pair and a dropped fixture pair,
// compared in the browser and checked against the native CLI's CSV.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  asysOut,
  DEMO_BASE,
  DEMO_SLOW,
  dropFile,
  exportedCsv,
  headers,
  openAppForEachTest,
  parseCsv,
  ROOT,
  selectRule,
  tableRows,
  waitIdle,
  waitResult,
} from './helpers';

const RULE = 'ppu_kernel_summary_compare';

function cliLines(spec: string, base: string, target: string): string[] {
  return asysOut(['stats', '-r', spec, base, target]).trimEnd().split('\n');
}

openAppForEachTest();

async function openCompare(page: Page) {
  await page.getByTestId('view-compare').click();
  expect(await selectRule(page, RULE)).toBe('ready');
}

test('the demo pair: compare, export the CLI bytes, click a bar, swap, rename', async ({ page }) => {
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await expect(page.getByTestId('report-tab')).toHaveCount(2);
  await openCompare(page);
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-base/);
  await expect(page.getByTestId('alias-target')).toHaveText(/demo-slow/);

  const expected = cliLines(RULE, DEMO_BASE, DEMO_SLOW);
  const exported = await exportedCsv(page);
  expect(exported.name).toBe(`demo-base_vs_demo-slow_${RULE}.csv`);
  expect(exported.lines).toEqual(expected);
  await expect(page.getByTestId('row-count')).toHaveText(`${expected.length - 1} rows`);

  // The top band of the chart is the table's first row (the larger share);
  // clicking it selects that row.
  const chart = page.getByTestId('hotspot-chart');
  await expect(chart).toHaveAttribute('data-rendered', 'true');
  const box = (await chart.boundingBox())!;
  await chart.click({ position: { x: box.width * 0.75, y: 32 } });
  const selected = page.locator('[data-testid=result-table] .rows .tr[aria-selected=true]');
  await expect(selected).toHaveCount(1);
  const firstKernel = parseCsv(expected[1] + '\n')[0][8];
  await expect(selected).toContainText(firstKernel);

  // Swap: the slow report becomes the base, and the table is the CLI's with
  // the reports the other way round.
  await page.getByTestId('swap').click();
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-slow/);
  expect(await waitResult(page, RULE)).toBe('ready');
  const swapped = await exportedCsv(page);
  expect(swapped.name).toBe(`demo-slow_vs_demo-base_${RULE}.csv`);
  expect(swapped.lines).toEqual(cliLines(RULE, DEMO_SLOW, DEMO_BASE));

  // Rename the target (double-click); the pair columns' headers follow.
  await page.getByTestId('alias-target').getByTestId('alias').dblclick();
  await page.getByTestId('alias-input').fill('before');
  await page.getByTestId('alias-input').press('Enter');
  await expect(page.getByTestId('alias-target')).toHaveText(/before/);
  expect(await headers(page)).toContain('Instances demo-slow / before');
});

test('show matched only, on a dropped pair with kernels on one side', async ({ page }) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-compare-'));
  try {
    const build = (name: string) => {
      const out = path.join(dir, `${name}.asysrep`);
      const sql = readFileSync(path.join(ROOT, 'tests/golden/fixtures', `${name}.sql`), 'utf8');
      execFileSync('sqlite3', [out], { input: sql });
      return out;
    };
    const base = build('cmp_base');
    const target = build('cmp_target');
    // Dropped one after the other: the second is active and compares with the first.
    await dropFile(page, 'cmp_base.asysrep', readFileSync(base));
    await waitIdle(page);
    await dropFile(page, 'cmp_target.asysrep', readFileSync(target));
    await waitIdle(page);
    await openCompare(page);
    await expect(page.getByTestId('alias-base')).toHaveText(/cmp_target/);
    await page.getByTestId('swap').click();
    await expect(page.getByTestId('alias-base')).toHaveText(/cmp_base/);
    expect(await waitResult(page, RULE)).toBe('ready');

    const all = cliLines(RULE, base, target);
    expect((await exportedCsv(page)).lines).toEqual(all);
    // One-sided rows show "-" on the missing side.
    expect(all.some((l) => l.includes('"- / '))).toBe(true);

    await page.getByTestId('setting-matched-only').locator('input').check();
    expect(await waitResult(page, RULE)).toBe('ready');
    const matched = cliLines(`${RULE}:matched-only`, base, target);
    expect(matched.length).toBeLessThan(all.length);
    await expect(tableRows(page)).toHaveCount(matched.length - 1);
    expect((await exportedCsv(page)).lines).toEqual(matched);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every compare rule in the compare view: the CLI bytes, and its hotspot chart', async ({ page }) => {
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  const rules = await page.locator('[data-testid^=rule-][data-available=true]').evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-testid')!.slice('rule-'.length)),
  );
  expect(rules).toEqual(expect.arrayContaining([RULE, 'ppu_operator_kernel_breakdown_compare', 'ppu_time_util_compare']));
  for (const rule of rules) {
    expect(await selectRule(page, rule), rule).toBe('ready');
    expect((await exportedCsv(page)).lines, rule).toEqual(cliLines(rule, DEMO_BASE, DEMO_SLOW));
    // Pairs and side blocks alike give the chart bars.
    const chart = page.getByTestId('hotspot-chart');
    await expect(chart, rule).toHaveAttribute('data-rendered', 'true');
    expect(Number(await chart.getAttribute('data-bars')), rule).toBeGreaterThan(0);
  }
  // A shared key (OP Type) is one text for both sides: no alias pair under its header.
  expect(await selectRule(page, 'ppu_operator_summary_compare')).toBe('ready');
  const hs = await headers(page);
  expect(hs).toContain('OP Type');
  expect(hs).toContain('Percent (%) demo-base / demo-slow');
});

// A compare row names a kernel in each report: its right-click marks it on
// that report's timeline, as a summary row's "Mark in timeline" does (no
// compare rule's row is one event: they are all summaries by name).
test('a compare row marks its kernel on the base\'s or the target\'s timeline', async ({ page }) => {
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await openCompare(page);
  const [header, first] = parseCsv(cliLines(RULE, DEMO_BASE, DEMO_SLOW).slice(0, 2).join('\n') + '\n');
  const baseKernel = first[header.indexOf('Base Kernel')];
  const targetKernel = first[header.indexOf('Target Kernel')];
  expect(baseKernel).not.toBe('-');
  expect(targetKernel).not.toBe('-');
  const menu = page.getByTestId('context-menu');
  const row = page.locator('[data-testid=result-table] .rows .tr[data-row="0"]');
  const canvas = page.getByTestId('timeline-canvas');

  // The base's: the timeline of demo-base, its slices of that name outlined.
  await row.click({ button: 'right' });
  await expect(menu.getByRole('menuitem')).toHaveText([
    `Mark “${baseKernel}” in demo-base's timeline`,
    `Mark “${targetKernel}” in demo-slow's timeline`,
  ]);
  await menu.getByRole('menuitem').first().click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  await expect(page.locator('.report-tab.selected')).toContainText('demo-base');
  await expect(canvas).toHaveAttribute('data-marked', /^[1-9]\d*$/);
  await expect(page.getByTestId('tl-clear-mark')).toContainText(baseKernel.slice(0, 20));

  // The target's: the pair swapped (the timeline shows the active report), demo-slow's slices marked.
  await page.getByTestId('view-compare').click();
  await waitIdle(page);
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'ready');
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await menu.getByRole('menuitem', { name: `Mark “${targetKernel}” in demo-slow's timeline` }).click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  await expect(page.locator('.report-tab.selected')).toContainText('demo-slow');
  await expect(canvas).toHaveAttribute('data-marked', /^[1-9]\d*$/);
  await expect(page.getByTestId('tl-clear-mark')).toContainText(targetKernel.slice(0, 20));
  await page.getByTestId('view-compare').click();
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-slow/);
  await expect(page.getByTestId('alias-target')).toHaveText(/demo-base/);
});

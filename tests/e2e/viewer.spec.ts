// The viewer end to end: the built app (build/web) with the real WebAssembly
// engine and the demo reports, in Chromium.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import {
  columnTexts,
  DEMO_BASE,
  DEMO_SLOW,
  dropFile,
  exportedCsv,
  FIVE_RULES,
  headers,
  openDemo,
  parseShown,
  ROOT,
  selectRule,
  tableRows,
  waitIdle,
  openAppForEachTest,
  waitResult,
} from './helpers';

openAppForEachTest();

test('opens the demo report and shows the kernel summary with its pie chart', async ({ page }) => {
  await expect(page.getByTestId('landing')).toBeVisible();
  await expect(page.getByTestId('openable')).toContainText(
    'asysrep, Nsight Systems SQLite export, PyTorch/Kineto trace .json/.json.gz; several rank traces at once',
  );
  await openDemo(page);
  await expect(page.getByTestId('summary-host')).not.toBeEmpty();
  await expect(page.getByTestId('summary-tables')).toContainText('HGGC_KERNEL');

  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);
  await expect(page.getByTestId('row-count')).toHaveText(/^[\d\u202f]+ rows?$/);
  const hs = await headers(page);
  expect(hs).toEqual(
    expect.arrayContaining(['Time (%)', 'Total Time (ns)', 'Instances', 'Avg (ns)', 'StdDev (ns)', 'Name']),
  );

  await expect(page.locator('[data-testid=pie-chart] canvas')).toBeVisible();
  const slices = await page.getByTestId('legend-item').count();
  expect(slices).toBeGreaterThan(0);
  expect(slices).toBeLessThanOrEqual(11); // top 10 + Other
  // The legend is sorted descending ("Other" placed by its value like any slice).
  const pcts = (await page.locator('.legend-pct').allTextContents()).map((s) => parseFloat(s));
  expect(pcts).toEqual([...pcts].sort((a, b) => b - a));

  // Fewer slices: top 3 + Other.
  await page.getByTestId('pie-topn').fill('3');
  await expect(page.getByTestId('legend-item')).toHaveCount(Math.min(slices, 4));

  // The chart folds away and comes back.
  await page.getByTestId('toggle-chart').click();
  await expect(page.getByTestId('pie-chart')).toHaveCount(0);
  await page.getByTestId('toggle-chart').click();
  await expect(page.locator('[data-testid=pie-chart] canvas')).toBeVisible();
});

test('each of the five rules gives rows', async ({ page }) => {
  await openDemo(page);
  for (const rule of FIVE_RULES) {
    await expect(page.getByTestId(`rule-${rule}`)).toHaveAttribute('data-available', 'true');
    expect(await selectRule(page, rule), rule).toBe('ready');
    expect(await tableRows(page).count(), rule).toBeGreaterThan(0);
    await expect(page.getByTestId('rule-title')).not.toBeEmpty();
  }
  // The device table has one row per device of the summary.
  await selectRule(page, 'ppu_device_attribute');
  const devices = Number(await page.getByTestId('summary-devices').getAttribute('data-count'));
  expect(devices).toBeGreaterThan(0);
  await expect(page.getByTestId('row-count')).toHaveText(`${devices} row${devices === 1 ? '' : 's'}`);
});

test("the summary lists the report's named threads and its devices' attributes, as its tables hold them", async ({ page }) => {
  await openDemo(page);
  // The reference: the report's own tables, read with sqlite3.
  const q = (sql: string) => execFileSync('sqlite3', ['-readonly', DEMO_BASE, sql]).toString().trim().split('\n');
  const [threadCount] = q('SELECT count(DISTINCT globalTid) FROM ThreadNames');
  await expect(page.getByTestId('summary-threads')).toHaveAttribute('data-count', threadCount);
  const threads = page.getByTestId('summary-threads');
  await threads.locator('summary').click();
  const names = q('SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId ORDER BY t.globalTid');
  await expect(threads.locator('div.ellipsis')).toHaveCount(names.length);
  expect((await threads.locator('div.ellipsis').allInnerTexts()).map((t) => t.replace(/ \(\d+\)$/, ''))).toEqual(names);
  const attributes = page.getByTestId('summary-device-attributes');
  await attributes.locator('summary').click();
  await expect(attributes.locator('td[data-column=cuCount]')).toHaveText(q('SELECT cuCount FROM TARGET_INFO_PPU ORDER BY id'));
  // Clocks in MHz from the table's Hz.
  await expect(attributes.locator('td[data-column=cuClock]')).toHaveText(
    q('SELECT cuClock FROM TARGET_INFO_PPU ORDER BY id').map((hz) => `${Math.round(Number(hz) / 1e6)} MHz`),
  );
});

test('every rule in the list opens on the demo report and shows rows', async ({ page }) => {
  await openDemo(page);
  const ids = await page.locator('[data-testid^="rule-"][data-available]').evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-testid')!.slice('rule-'.length)),
  );
  // The engine declares 15 rules for issues 2 and 3; the demo has data for all.
  expect(ids.length, JSON.stringify(ids)).toBeGreaterThanOrEqual(15);
  for (const rule of ids) {
    await expect(page.getByTestId(`rule-${rule}`)).toHaveAttribute('data-available', 'true');
    expect(await selectRule(page, rule), rule).toBe('ready');
    expect(await tableRows(page).count(), rule).toBeGreaterThan(0);
  }
});

test('a trace of thousands of rows keeps only the visible rows in the page', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'hggc_ppu_trace')).toBe('ready');
  const total = Number((await page.getByTestId('row-count').innerText()).replace(/\D/g, ''));
  expect(total).toBeGreaterThan(1000);
  expect(await tableRows(page).count()).toBeLessThan(200);
});

test('Kernel Name Mode: Base shows short names', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  const mode = page.getByTestId('setting-name-mode').locator('select');
  await expect(mode.locator('option').first()).toHaveText('Demangled');
  const demangled = await columnTexts(page, 'Name');
  expect(demangled.some((n) => n.includes('('))).toBe(true);

  await mode.selectOption({ label: 'Base' });
  await expect(page.locator('.cli-spec')).toContainText('hggc_ppu_kern_sum:base');
  await waitResult(page, 'hggc_ppu_kern_sum');
  const base = await columnTexts(page, 'Name');
  expect(base.length).toBeGreaterThan(0);
  expect(base).not.toEqual(demangled);
  expect(base.every((n) => !n.includes('('))).toBe(true);

  await mode.selectOption({ label: 'Mangled' });
  await waitResult(page, 'hggc_ppu_kern_sum');
  const mangled = await columnTexts(page, 'Name');
  expect(mangled.some((n) => n.startsWith('_Z'))).toBe(true);
});

test('rows limit and device filter come from the settings panel', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  const all = parseShown((await page.getByTestId('row-count').textContent())!.replace(/rows?/, ''));
  await page.getByTestId('setting-rows').locator('input').fill('2');
  await waitResult(page, 'hggc_ppu_kern_sum');
  await expect(page.getByTestId('row-count')).toHaveText(all >= 2 ? '2 rows' : `${all} row${all === 1 ? '' : 's'}`);
  await page.getByTestId('setting-rows').locator('input').fill('-1');
  await waitResult(page, 'hggc_ppu_kern_sum');

  // One device only: the command line form shows it.
  const picker = page.getByTestId('setting-device');
  const firstDevice = picker.locator('button[data-id]').first();
  if (await firstDevice.count()) {
    const id = await firstDevice.getAttribute('data-id');
    await firstDevice.click();
    await expect(page.locator('.cli-spec')).toContainText(`device=${id}`);
    expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  }
});

test('sorting by a header and filtering by a pie slice', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_api_sum');
  const topName = (await columnTexts(page, 'Name'))[0]; // the largest total: a slice of its own
  const header = page.locator('[data-testid=result-table] [role=columnheader]', { hasText: 'Num Calls' });
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  let calls = (await columnTexts(page, 'Num Calls')).map(parseShown);
  expect(calls).toEqual([...calls].sort((a, b) => b - a));
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  calls = (await columnTexts(page, 'Num Calls')).map(parseShown);
  expect(calls).toEqual([...calls].sort((a, b) => a - b));

  const nameHeader = page.locator('[data-testid=result-table] [role=columnheader]', { hasText: /^Name/ });
  await nameHeader.click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');

  // A slice click filters the table to that key; a second click resets.
  const total = await page.getByTestId('row-count').textContent();
  const slice = page.getByTestId('legend-item').filter({ has: page.locator('.legend-name', { hasText: topName }) }).first();
  await slice.click();
  await expect(page.getByTestId('table-filter')).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(/^1 of /);
  expect(await columnTexts(page, 'Name')).toEqual([topName]);
  await slice.click();
  await expect(page.getByTestId('table-filter')).toHaveCount(0);
  await expect(page.getByTestId('row-count')).toHaveText(total!);

  // The chart's slices filter too (the first slice starts at 12 o'clock, clockwise).
  await expect(page.getByTestId('pie-chart')).toHaveAttribute('data-rendered', 'true');
  const canvas = page.locator('[data-testid=pie-chart] canvas');
  const box = (await canvas.boundingBox())!;
  const r = Math.min(box.width, box.height) / 2;
  await page.mouse.click(box.x + box.width / 2 + r * 0.18, box.y + box.height / 2 - r * 0.55);
  await expect(page.getByTestId('table-filter')).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(/^1 of /);
  await expect(page.getByTestId('pie-chart')).toHaveAttribute('data-rendered', 'true');
  await page.mouse.click(box.x + 4, box.y + 4); // empty space resets
  await expect(page.getByTestId('table-filter')).toHaveCount(0);
});

test('Export CSV downloads the rule as the CLI writes it', async ({ page }) => {
  await openDemo(page);
  await selectRule(page, 'hggc_api_sum');
  const { name, lines } = await exportedCsv(page);
  expect(name).toBe('demo-base_hggc_api_sum.csv');
  expect(lines[0]).toBe('Row#,Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name,');
  const rows = (await page.getByTestId('row-count').textContent())!;
  expect(lines.length - 1).toBe(parseShown(rows.replace(/rows?/, '')));
  expect(lines[1]).toMatch(/^1,\d+\.\d,\d+,\d+,\d+,\d+,\d+,\d+,\d+,".*",$/);
  await waitIdle(page);
});

test('opening a report from the file picker shows its summary', async ({ page }) => {
  await page.getByTestId('file-input').first().setInputFiles(DEMO_BASE);
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  await expect(page.getByTestId('summary-host')).not.toBeEmpty();
  await expect(page.getByTestId('summary-capture')).toHaveText(/\d/);
  await expect(page.getByTestId('summary-tables').locator('.table-name')).not.toHaveCount(0);
  await waitIdle(page);
  expect(await selectRule(page, 'osrt_sum')).toBe('ready');
});

test('dropping a report anywhere opens it', async ({ page }) => {
  await dropFile(page, 'demo-slow.asysrep', readFileSync(DEMO_SLOW));
  await expect(page.getByTestId('summary-file')).toHaveText('demo-slow.asysrep');
  await waitIdle(page);
  expect(await selectRule(page, 'hgtx_sum')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);
});

test("dropping a non-report shows the engine's error and the page keeps working", async ({ page }) => {
  await dropFile(page, 'notes.txt', Buffer.from('these are not the profiling data you are looking for\n'), 'text/plain');
  await expect(page.getByTestId('error-banner')).toContainText('notes.txt');
  // The engine's own line, without the worker's mount directory.
  await expect(page.getByTestId('error-text')).toHaveText(/^notes\.txt: not a report asys can read/);
  await waitIdle(page);

  await openDemo(page);
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');

  // A bad file while a report is open leaves that report usable.
  await dropFile(page, 'empty.asysrep', Buffer.alloc(0));
  await expect(page.getByTestId('error-banner')).toContainText('empty.asysrep');
  await waitIdle(page);
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);
});

test("a report without a rule's data greys the rule and shows the engine's reason", async ({ page }, info) => {
  let sqlite = '';
  try {
    sqlite = execFileSync('sh', ['-c', 'command -v sqlite3']).toString().trim();
  } catch {
    test.skip(true, 'sqlite3 is not installed');
  }
  // The golden fixture has HGGC and HGTX data but no OS runtime calls and no devices.
  const report = info.outputPath('kernels-only.asysrep');
  execFileSync(sqlite, [report], { input: readFileSync(path.join(ROOT, 'tests/golden/fixtures/kernels.sql')) });
  await page.getByTestId('file-input').first().setInputFiles(report);
  await expect(page.getByTestId('summary-file')).toHaveText('kernels-only.asysrep');
  await waitIdle(page);

  const osrt = page.getByTestId('rule-osrt_sum');
  await expect(osrt).toHaveAttribute('data-available', 'false');
  await expect(osrt).toContainText('OSRT_API');
  expect(await selectRule(page, 'osrt_sum')).toBe('error');
  await expect(page.getByTestId('rule-error')).toContainText('OSRT_API');
  await expect(page.getByTestId('rule-error')).toContainText('--trace osrt');

  // The other rules still run.
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
});

test('?demo=base opens the demo report on arrival', async ({ page }) => {
  await page.goto('./?demo=base');
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  await waitIdle(page);
  const rule = await page.locator('[data-testid=result]').getAttribute('data-rule');
  expect(await waitResult(page, rule!)).toBe('ready');
  await expect(page.locator('[data-testid=pie-chart] canvas')).toBeVisible();
});

test('the time range narrows every rule and resets to the whole capture', async ({ page }) => {
  await openDemo(page);
  test.skip((await page.getByTestId('time-filter').count()) === 0, 'this engine build has no setTimeFilter');
  await selectRule(page, 'hggc_api_sum');
  // Num Calls (the 4th CSV field) summed over all rows.
  const sumCalls = async () =>
    (await exportedCsv(page)).lines.slice(1).reduce((sum, line) => sum + Number(line.split(',')[3]), 0);
  const whole = await sumCalls();

  await page.getByTestId('time-to').fill('100ms');
  await page.getByTestId('time-apply').click();
  await expect(page.getByTestId('time-window')).toHaveText('start – 100.0 ms');
  await expect(page.locator('.cli-spec')).toContainText('--filter-time /100000000 -r hggc_api_sum');
  expect(await waitResult(page, 'hggc_api_sum')).toBe('ready');
  const early = await sumCalls();
  expect(early).toBeLessThan(whole);

  // An HGTX range that does not exist: the engine's message, the range unchanged.
  await page.getByTestId('time-hgtx').fill('no such range');
  await page.getByTestId('time-apply').click();
  await expect(page.getByTestId('time-error')).toContainText('no such range');
  await expect(page.getByTestId('time-window')).toHaveText('start – 100.0 ms');

  await page.getByRole('button', { name: 'Whole capture' }).click();
  await expect(page.getByTestId('time-window')).toHaveCount(0);
  await waitResult(page, 'hggc_api_sum');
  expect(await sumCalls()).toBe(whole);
});

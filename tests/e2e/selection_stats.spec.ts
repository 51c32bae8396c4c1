// A drag selection's statistics (issue 23, "Selection statistics"): on the
// demo report a dragged range shows its start (from the capture start, the
// absolute ns on hover) and duration, each PPU's active, idle, kernel and
// memory shares, and its events grouped by kind and name in a table that
// exports as CSV. Every number is checked against values computed here from
// the report's own tables with the sqlite3 shell (unions of intervals in
// this file, kernels grouped by SQL), not by the engine. Then the same
// under lang=zh.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { WIRE_SELECTION_KINDS } from '../../web/src/engine/bridge_schema.gen';
import { asysOut, DEMO_BASE, dragSelect, dropFile, importedCopy, openAppForEachTest, openTimeline, parseCsv, REAL_TRACE_AND_EXPORT, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';

openAppForEachTest({ demo: true });

/** part / whole in percent, one decimal, half away from zero, as text ("83.3%"). */
function percent(part: bigint, whole: bigint): string {
  const tenths = (part * 2000n + whole) / (2n * whole);
  return `${tenths / 10n}.${tenths % 10n}%`;
}

/** ns as the viewer's formatDurationNs writes them, worked out here on its own. */
function durationText(ns: bigint): string {
  const n = Number(ns);
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)} ms`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)} µs`;
  return `${n} ns`;
}

/** Digits grouped with thin spaces, as the viewer shows an integer. */
const grouped = (v: bigint | number) => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

/** The spans of a table's rows on each device overlapping [from, to). */
function spansByDevice(table: string, from: bigint, to: bigint, db = DEMO_BASE): Map<number, [bigint, bigint][]> {
  const out = new Map<number, [bigint, bigint][]>();
  const has = sql(`SELECT count(*) FROM sqlite_master WHERE name = '${table}'`, db)[0][0] !== '0';
  if (!has) return out;
  for (const [device, s, e] of sql(`SELECT deviceId, start, end FROM ${table} WHERE end IS NOT NULL AND start < ${to} AND end > ${from}`, db)) {
    const list = out.get(Number(device)) ?? [];
    list.push([BigInt(s), BigInt(e)]);
    out.set(Number(device), list);
  }
  return out;
}

/** The selection's window from the panel (absolute ns), once its figures are in. */
async function shownWindow(page: Page): Promise<{ from: bigint; to: bigint }> {
  const panel = page.getByTestId('selection-stats');
  await expect(panel).toHaveAttribute('data-status', 'ready');
  return { from: BigInt((await panel.getAttribute('data-from'))!), to: BigInt((await panel.getAttribute('data-to'))!) };
}

/** A device row's shown share, without the bar: "83.3%". */
async function shareText(page: Page, device: number, cell: string): Promise<string> {
  return ((await page.locator(`[data-testid=selection-devices] tr[data-device="${device}"] [data-testid=${cell}]`).textContent()) ?? '').trim();
}

test('a drag selection shows its start, duration, each PPU\'s active, idle, kernel and memory shares and its events by name, exported as CSV', async ({ page }) => {
  await openTimeline(page);
  await expect(page.getByTestId('selection-stats')).toHaveCount(0);
  await dragSelect(page, 0.3, 0.55);
  await waitIdle(page);
  const { from, to } = await shownWindow(page);
  const length = to - from;
  expect(length > 0n).toBe(true);
  // The readout above and the panel speak of the same selection.
  const readout = (await page.getByTestId('tl-selection').getAttribute('title'))!;
  expect(readout.startsWith(`${from} – ${to} ns`)).toBe(true);

  // Start from the capture start (0 in a generated report), the absolute ns on hover; the duration's exact ns on hover.
  const zero = BigInt(sql("SELECT value FROM META_DATA WHERE name = 'captureStart'")[0]?.[0] ?? '0');
  const start = page.getByTestId('sel-start').locator('.time-text');
  await expect(start).toHaveAttribute('data-abs', String(from));
  expect(await start.getAttribute('title')).toContain(String(from));
  expect((await start.textContent())!).toBe(`+${durationText(from - zero)}`);
  const duration = page.getByTestId('sel-duration');
  await expect(duration).toHaveAttribute('data-ns', String(length));
  await expect(duration).toHaveText(`duration ${durationText(length)}`);
  expect(await duration.getAttribute('title')).toBe(`${grouped(length)} ns`);

  // Each PPU: unions of its kernels, memory operations and both, from the report's tables.
  const kernels = spansByDevice('HGGC_KERNEL', from, to);
  const memcpys = spansByDevice('HGGC_MEMCPY', from, to);
  const memsets = spansByDevice('HGGC_MEMSET', from, to);
  const devices = sql('SELECT DISTINCT deviceId FROM HGGC_KERNEL UNION SELECT DISTINCT deviceId FROM HGGC_MEMCPY UNION SELECT DISTINCT deviceId FROM HGGC_MEMSET ORDER BY 1').map((r) => Number(r[0]));
  expect(devices.length).toBeGreaterThan(1);
  const rows = page.locator('[data-testid=selection-devices] tbody tr');
  await expect(rows).toHaveCount(devices.length);
  let anyActive = false;
  for (const d of devices) {
    const k = kernels.get(d) ?? [];
    const m = [...(memcpys.get(d) ?? []), ...(memsets.get(d) ?? [])];
    const active = unionIn([...k, ...m], from, to);
    anyActive ||= active > 0n;
    expect(await shareText(page, d, 'sel-active'), `PPU ${d} active`).toBe(percent(active, length));
    expect(await shareText(page, d, 'sel-idle'), `PPU ${d} idle`).toBe(percent(length - active, length));
    expect(await shareText(page, d, 'sel-kernel'), `PPU ${d} kernels`).toBe(percent(unionIn(k, from, to), length));
    expect(await shareText(page, d, 'sel-memory'), `PPU ${d} memory`).toBe(percent(unionIn(m, from, to), length));
    const row = page.locator(`[data-testid=selection-devices] tr[data-device="${d}"]`);
    await expect(row.getByTestId('sel-active')).toHaveAttribute('data-ns', String(active));
  }
  expect(anyActive).toBe(true);

  // The grouped table, exported: its kernel rows are the report's kernels overlapping the selection, by name.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('selection-stats').getByTestId('export-csv').click(),
  ]);
  expect(download.suggestedFilename()).toBe('demo-base_timeline_selection.csv');
  const [header, ...csv] = parseCsv(readFileSync(await download.path(), 'utf8'));
  // The CLI's CSV: a Row# column first, a comma ending each line.
  expect(header.filter((h) => h !== '')).toEqual(['Row#', 'Total Time (ns)', 'Count', 'Avg (ns)', 'Min (ns)', 'Max (ns)', 'In Selection (ns)', 'Kind', 'Name']);
  const at = (name: string) => header.indexOf(name);
  const expected = new Map(
    sql(
      `SELECT s.value, count(*), sum(k.end - k.start), min(k.end - k.start), max(k.end - k.start) FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.demangledName WHERE k.end IS NOT NULL AND k.start < ${to} AND k.end > ${from} GROUP BY s.value`,
    ).map(([name, count, total, min, max]) => [name, [count, total, String(BigInt(total) / BigInt(count)), min, max]]),
  );
  expect(expected.size).toBeGreaterThan(0);
  const shown = new Map(
    csv.filter((r) => r[at('Kind')] === 'Kernel').map((r) => [r[at('Name')], [r[at('Count')], r[at('Total Time (ns)')], r[at('Avg (ns)')], r[at('Min (ns)')], r[at('Max (ns)')]]]),
  );
  expect(shown).toEqual(expected);
  // Every kind the selection holds, each name once; totals descending.
  const kinds = new Set(csv.map((r) => r[at('Kind')]));
  expect([...kinds].filter((k) => !(WIRE_SELECTION_KINDS as readonly string[]).includes(k))).toEqual([]);
  expect(kinds.has('HGGC API')).toBe(true);
  const totals = csv.map((r) => BigInt(r[at('Total Time (ns)')]));
  expect(totals.every((v, i) => i === 0 || totals[i - 1] >= v)).toBe(true);
  // The table shows as many rows as the CSV holds.
  await expect(page.getByTestId('selection-stats').getByTestId('row-count')).toHaveText(`${grouped(csv.length)} rows`);

  // A click without a drag clears the selection, and the statistics with it.
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + 230 + (box.width - 230) * 0.9, box.y + 100);
  await waitIdle(page);
  await expect(page.getByTestId('selection-stats')).toHaveCount(0);
});

test('the selection statistics follow a new selection', async ({ page }) => {
  await openTimeline(page);
  await dragSelect(page, 0.1, 0.2);
  await waitIdle(page);
  const first = await shownWindow(page);
  await dragSelect(page, 0.6, 0.9);
  await waitIdle(page);
  const second = await shownWindow(page);
  expect(second.from > first.to).toBe(true);
  expect(String(second.to - second.from)).toBe(await page.getByTestId('sel-duration').getAttribute('data-ns'));
});

test('under lang=zh the selection statistics are in Chinese', async ({ page }) => {
  await page.getByTestId('lang-switch').selectOption('zh');
  await openTimeline(page);
  await dragSelect(page, 0.3, 0.55);
  await waitIdle(page);
  await shownWindow(page);
  const panel = page.getByTestId('selection-stats');
  await expect(panel.locator('.selection-head strong')).toHaveText('选区');
  await expect(page.getByTestId('sel-start')).toContainText('起点');
  await expect(page.getByTestId('sel-duration')).toContainText('时长');
  await expect(panel.locator('[data-testid=selection-devices] thead th')).toHaveText(['PPU', '活跃', '空闲', 'Kernel 时间', '内存操作']);
  await expect(panel.getByTestId('export-csv')).not.toHaveText(/Export/);
  // No English of the interface's own in the panel: only the report's data (device names, the table's cells and headers).
  const english = await panel.evaluate((root) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      if (el.closest('[data-testid=result-table], .device-name')) continue;
      const text = (n.textContent ?? '').trim();
      if (/[\u4e00-\u9fff]/.test(text)) continue;
      const words = (text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !['PPU', 'ms', 'us', 'µs', 'ns', 's', 'CSV', 'XLSX'].includes(w));
      if (words.length > 0) out.push(text);
    }
    return out;
  });
  expect(english).toEqual([]);
});

// Real files: a Kineto trace (epoch ns past 2^53) and an Nsight Systems export, imported by the viewer as the CLI imports them.
const REAL = REAL_TRACE_AND_EXPORT;
for (const real of REAL) {
  test(`${real.name}: each PPU's shares from its own tables, the kernel rows as hggc_ppu_kern_sum over the same --filter-time range`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    // The CLI's import of the same file: its tables and capture start, read with sqlite3.
    const db = importedCopy(real.file, 'asys-sel-');
    const zero = BigInt(sql("SELECT value FROM META_DATA WHERE name = 'captureStart'", db)[0]?.[0] ?? '0');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await openTimeline(page);
    await dragSelect(page, 0.15, 0.85);
    await waitIdle(page);
    const { from, to } = await shownWindow(page);
    await expect(page.getByTestId('sel-start').locator('.time-text')).toHaveText(`+${durationText(from - zero)}`);
    const kernels = spansByDevice('HGGC_KERNEL', from, to, db);
    const memory = [spansByDevice('HGGC_MEMCPY', from, to, db), spansByDevice('HGGC_MEMSET', from, to, db)];
    const rows = page.locator('[data-testid=selection-devices] tbody tr');
    const devices = await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-device'))));
    expect(devices.length).toBeGreaterThan(0);
    let anyActive = false;
    for (const d of devices) {
      const k = kernels.get(d) ?? [];
      const m = memory.flatMap((byDevice) => byDevice.get(d) ?? []);
      const active = unionIn([...k, ...m], from, to);
      anyActive ||= active > 0n;
      expect(await shareText(page, d, 'sel-active'), `PPU ${d} active`).toBe(percent(active, to - from));
      expect(await shareText(page, d, 'sel-kernel'), `PPU ${d} kernels`).toBe(percent(unionIn(k, from, to), to - from));
      expect(await shareText(page, d, 'sel-memory'), `PPU ${d} memory`).toBe(percent(unionIn(m, from, to), to - from));
    }
    expect(anyActive).toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('selection-stats').getByTestId('export-csv').click(),
    ]);
    const [header, ...csv] = parseCsv(readFileSync(await download.path(), 'utf8'));
    const at = (name: string) => header.indexOf(name);
    const shown = new Map(csv.filter((r) => r[at('Kind')] === 'Kernel').map((r) => [r[at('Name')], [r[at('Count')], r[at('Total Time (ns)')]]]));
    const [h, ...sum] = parseCsv(asysOut(['stats', '-r', 'hggc_ppu_kern_sum', '--filter-time', `${from - zero}/${to - zero}`, '--format', 'csv', db]));
    const expected = new Map(sum.map((r) => [r[h.indexOf('Name')], [r[h.indexOf('Instances')], r[h.indexOf('Total Time (ns)')]]]));
    expect(expected.size).toBeGreaterThan(0);
    expect(shown).toEqual(expected);
  });
}

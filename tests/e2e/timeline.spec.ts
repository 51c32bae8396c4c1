// The timeline end to end: tracks drawn from the engine's window queries,
// zoom and pan, a click's details, "Filter and Zoom in" giving every rule the
// totals --filter-time gives, and a table row's "Zoom to in timeline".
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sqlReport } from '../corpus/corpus.mjs';
import { asysOut, DEMO_BASE, dropFile, exportedCsv, holdsWithin, openAppForEachTest, openDemoTimelineAt, openDemoTimelineLink, openTimeline, parseCsv, selectRule, timelineWindow as windowOf, waitIdle, wheelTimeline } from './helpers';


openAppForEachTest({ demo: true });

/** After a scroll: the slices of the rows now in view have arrived (the view asks for them after a scroll). */
const rowsReady = async (page: Page) => {
  // Two animation frames: the scroll event and the view's render are done, so the attribute is the new rows'.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-rows-ready', 'true');
  await waitIdle(page);
};
const LABELS = 230; // the label column's width (lib/timeline LABEL_WIDTH)

test('the timeline draws every track, zooms around the pointer and pans with the keyboard', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  await expect(canvas).toHaveAttribute('data-slices', /^[1-9]\d*$/);
  // 78 rows, and the host rows (issue 23): 2 processes' HGTX start/end and allocation failures rows, 4 library rows each.
  await expect(page.getByTestId('timeline-window')).toContainText('90 tracks');
  const whole = await windowOf(page);
  const box = (await canvas.boundingBox())!;
  const x = box.x + LABELS + (box.width - LABELS) / 2;
  await page.mouse.move(x, box.y + 60);
  await wheelTimeline(page, 0, -400);
  const zoomed = await windowOf(page);
  expect(zoomed.to - zoomed.from).toBeLessThan((whole.to - whole.from) * 0.7);
  // The time under the pointer (the middle) stays put.
  expect(Math.abs((zoomed.from + zoomed.to) / 2 - (whole.from + whole.to) / 2)).toBeLessThan((whole.to - whole.from) * 0.01);
  await canvas.focus();
  await page.keyboard.press('a');
  const panned = await windowOf(page);
  expect(panned.from).toBeLessThan(zoomed.from);
  expect(panned.to - panned.from).toBeCloseTo(zoomed.to - zoomed.from, 0);
  await page.keyboard.press('w');
  const closer = await windowOf(page);
  expect(closer.to - closer.from).toBeLessThan(panned.to - panned.from);
  await page.getByTestId('tl-reset').click();
  expect(await windowOf(page)).toEqual(whole);
});

test('a click on a slice shows its details', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  // Scan down at 80 % of the width until a click lands on a slice (the HGTX
  // ranges span most of the capture there).
  for (let y = 30; y < box.height; y += 8) {
    await page.mouse.click(box.x + LABELS + (box.width - LABELS) * 0.8, box.y + y);
    if ((await page.getByTestId('tl-details').locator('strong').count()) > 0) break;
  }
  await expect(page.getByTestId('tl-details').locator('strong')).not.toBeEmpty();
  await expect(page.getByTestId('tl-details')).toContainText('duration');
});

test('Filter and Zoom in: the dragged range is every rule\'s statistics range, as --filter-time', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const plot = box.width - LABELS;
  await page.mouse.move(box.x + LABELS + plot * 0.2, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + LABELS + plot * 0.4, box.y + 100, { steps: 5 });
  await page.mouse.up();
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  const filterTime = await page.getByTestId('timeline-view').getAttribute('data-filter-time');
  expect(filterTime).toMatch(/^\d+\/\d+$/);
  const [a, b] = filterTime!.split('/').map(Number);
  expect(b - a).toBeGreaterThan(0);
  // The timeline now shows that range.
  const origin = Number(await page.getByTestId('timeline-view').getAttribute('data-origin'));
  const w = await windowOf(page);
  expect(Math.abs(origin + w.from - a)).toBeLessThan(2); // the demo's captureStart is 0
  expect(Math.abs(origin + w.to - b)).toBeLessThan(2);
  await expect(page.getByTestId('tl-clear-range')).toBeVisible();
  // The statistics view runs every rule in that range: the CLI's bytes.
  await page.getByTestId('view-stats').click();
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const expected = asysOut(['stats', '-r', 'hggc_ppu_kern_sum', '--filter-time', filterTime!, DEMO_BASE]);
  const all = asysOut(['stats', '-r', 'hggc_ppu_kern_sum', DEMO_BASE]);
  expect(expected).not.toBe(all);
  expect((await exportedCsv(page)).lines).toEqual(expected.trimEnd().split('\n'));
});

test('right-click on a table row: Zoom to its span in the timeline', async ({ page }) => {
  expect(await selectRule(page, 'pccl_desync_trace')).toBe('ready');
  const first = asysOut(['stats', '-r', 'pccl_desync_trace', DEMO_BASE]).split('\n')[1];
  const [, start, duration] = first.split(',').map(Number);
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByText('Zoom to PCCL Communication in timeline').click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  const origin = Number(await page.getByTestId('timeline-view').getAttribute('data-origin'));
  const w = await windowOf(page);
  const pad = Math.max(duration * 0.1, 500);
  expect(Math.abs(origin + w.from - (start - pad))).toBeLessThan(2);
  expect(Math.abs(origin + w.to - (start + duration + pad))).toBeLessThan(2);
});

test('a permalink holds the timeline window: the same link and file show the same window', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + LABELS + (box.width - LABELS) * 0.3, box.y + 60);
  await wheelTimeline(page, 0, -500);
  const before = await windowOf(page);
  // The link once it holds the settled window: the address follows the
  // view a moment later, so a link read at the first window= may still
  // hold an earlier zoom step (seen on a loaded 2-core run).
  let seen = '';
  await expect
    .poll(async () => {
      const now = page.url();
      const settled = now === seen && /[#&]window=0(:|%3A)\d+(\/|%2F)\d+/.test(now);
      seen = now;
      return settled;
    }, { intervals: [250] })
    .toBe(true);
  const link = page.url();
  // The link names its report; opening it restores the view and the window.
  const windowAt = async (url: string) => {
    await openDemoTimelineLink(page, url);
    return windowOf(page);
  };
  // As written, and by hand without base= (the report is then the one open).
  for (const url of [link, link.replace(/&base=0/, '')]) {
    const after = await windowAt(url);
    expect(Math.abs(after.from - before.from), url).toBeLessThanOrEqual(1);
    expect(Math.abs(after.to - before.to), url).toBeLessThanOrEqual(1);
  }
  expect(link).toContain('&base=0');
});

test('right-click on a summary row: Mark its kernel in the timeline', async ({ page }) => {
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const name = (await page.locator('[data-testid=result-table] .rows .tr[data-row="0"] > :last-child').innerText()).trim();
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByText('in timeline').click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  // The costliest kernel runs on every device: its slices are marked, the others faded.
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-marked', /^[1-9]\d*$/);
  await expect(page.getByTestId('tl-clear-mark')).toContainText(name.slice(0, 20));
  await page.getByTestId('tl-clear-mark').click();
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-marked', '0');
});

// The links of an API call (issue 14): its launched kernels as
// hggc_kern_exec_trace pairs them on the command line (the same correlation
// id in the same process), listed in the details, and a jump to one selects it.
test('a click on an API call lists the kernels it launched, as hggc_kern_exec_trace; Go to selects the kernel', async ({ page }) => {
  const [header, ...rows] = parseCsv(asysOut(['stats', '-r', 'hggc_kern_exec_trace', '--format', 'csv', DEMO_BASE]));
  const col = (name: string) => header.indexOf(name);
  const [apiStart, apiDur, kStart, kDur, pid, tid, kName] = ['API Start (ns)', 'API Dur (ns)', 'Kernel Start (ns)', 'Kernel Dur (ns)', 'PID', 'TID', 'Kernel Name'].map(col);
  // A call in the middle of the capture, and every kernel of the trace it launched.
  const call = rows[Math.floor(rows.length / 2)];
  const launched = rows.filter((r) => r[apiStart] === call[apiStart] && r[pid] === call[pid] && r[tid] === call[tid]);
  expect(launched.length).toBeGreaterThan(0);
  const start = BigInt(call[apiStart]), dur = BigInt(call[apiDur]);
  // A window with the call in its middle third, through the permalink (absolute ns).
  await openDemoTimelineAt(page, start - dur, start + 2n * dur);
  const canvas = page.getByTestId('timeline-canvas');
  const details = page.getByTestId('tl-details');
  // The call's thread's HGGC API row scrolled into view, then down the
  // middle of the plot half a lane at a time until a click selects the call.
  const apiRow = page
    .getByTestId('timeline-rows')
    .locator('li')
    .filter({ has: page.getByTestId('tl-track').filter({ hasText: new RegExp(`^Thread ${call[tid]}\\b.* HGGC API`) }) })
    .first();
  const top = Number(await apiRow.getAttribute('data-top'));
  const rowHeight = Number(await apiRow.getAttribute('data-height'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 60)), top);
  await rowsReady(page);
  let found = false;
  for (let y = top + 4; y < top + rowHeight && !found; y += 8) {
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + y);
    await waitIdle(page);
    found = await holdsWithin(
      async () =>
        (await details.getAttribute('data-selected-kind')) === 'api' &&
        (await details.getAttribute('data-selected-start')) === call[apiStart],
    );
  }
  expect(found, `the call at ${call[apiStart]} was clicked`).toBe(true);
  await expect(details).toContainText(`Thread ${call[tid]}`);
  // The related list: exactly the trace's kernels of that call, names and starts.
  const items = page.getByTestId('tl-related-item');
  await expect(page.getByTestId('tl-related')).toHaveAttribute('data-count', String(launched.length));
  const listed = await items.evaluateAll((els) =>
    els.map((el) => ({ start: el.getAttribute('data-start'), name: el.querySelector('.tl-related-name')?.textContent })),
  );
  expect(listed).toEqual(launched.map((r) => ({ start: r[kStart], name: r[kName] })).sort((a, b) => Number(BigInt(a.start) - BigInt(b.start))));
  // Go to the first: the window holds it and it is the selection; its link is the call.
  await items.first().getByTestId('tl-related-go').click();
  await waitIdle(page);
  const first = launched.reduce((a, b) => (BigInt(a[kStart]) <= BigInt(b[kStart]) ? a : b));
  await expect(details).toHaveAttribute('data-selected-kind', 'kernel');
  await expect(details).toHaveAttribute('data-selected-start', first[kStart]);
  await expect(details.locator('strong')).toHaveText(first[kName]);
  const origin = BigInt((await page.getByTestId('timeline-view').getAttribute('data-origin'))!);
  const w = await windowOf(page);
  expect(Number(origin) + w.from).toBeLessThanOrEqual(Number(first[kStart]));
  expect(Number(origin) + w.to).toBeGreaterThanOrEqual(Number(first[kStart]) + Number(first[kDur]));
  await expect(page.getByTestId('tl-related-item')).toHaveCount(1);
  await expect(page.getByTestId('tl-related-item').first()).toHaveAttribute('data-start', call[apiStart]);
  await expect(canvas).toHaveAttribute('data-related', /^[0-9]+$/);
});

test('the rows of the digest: OSRT, PCCL, the HGTX projection and counters, with busy shares', async ({ page }) => {
  await openTimeline(page);
  const labels = await page.getByTestId('tl-track').allTextContents();
  const groups = await page.getByTestId('tl-group').allTextContents();
  const share = '— \\d+\\.\\d%';
  const count = (re: string) => labels.filter((l) => new RegExp(`^${re}$`).test(l)).length;
  // Two ranks of two PPUs each: every PPU has its PCCL kernels, its channels
  // 0 and 1 in both directions, its projection row, its memory in use and six metrics.
  expect(count(`Stream \\d+ ${share}`)).toBeGreaterThanOrEqual(4);
  expect(count(`PCCL kernels ${share}`)).toBe(4);
  expect(count(`PCCL ch [01] (TX|RX) ${share}`)).toBe(16);
  expect(count(`HGTX projection ${share}`)).toBe(4);
  expect(count('Memory in use · max \\d+(\\.\\d)? (B|KiB|MiB|GiB|TiB)')).toBe(4);
  expect(count('ce__cycles_active\\.avg\\.pct_of_peak_sustained_elapsed · max [\\d.]+ %')).toBe(4);
  expect(count(`Thread \\d+.* OSRT ${share}`)).toBeGreaterThanOrEqual(2);
  expect(groups.filter((g) => new RegExp(`^PPU \\d.* ${share}$`).test(g))).toHaveLength(4);
  expect(groups.filter((g) => new RegExp(`^Process \\d+.* ${share}$`).test(g))).toHaveLength(2);
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-counter-steps', /^[1-9]\d*$/);
  // Hovering the first memory row: its value in bytes at that time.
  const row = page.getByTestId('timeline-rows').locator('li').filter({ hasText: /^Memory in use/ }).first();
  const top = Number(await row.getAttribute('data-top'));
  const height = Number(await row.getAttribute('data-height'));
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  await canvas.hover({ position: { x: LABELS + (box.width - LABELS) * 0.6, y: top + height / 2 } });
  const tip = page.getByTestId('timeline-tip');
  await expect(tip).toContainText('Memory in use');
  await expect(tip).toContainText(/\d B/);
  await expect(tip).toContainText('at +');
});

test('only the rows in view are asked for and drawn; scrolling brings the others', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 700 });
  await openTimeline(page);
  const view = page.getByTestId('timeline-view');
  const box = page.locator('.timeline-scroll');
  const rows = page.getByTestId('timeline-rows').locator('li');
  const all = await rows.count();
  // The tracks of three screens of the scroll box at most: fewer than the report's 90.
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-slices', /^[1-9]\d*$/);
  const asked = Number(await view.getAttribute('data-tracks-asked'));
  expect(asked).toBeGreaterThan(0);
  expect(asked).toBeLessThan(all);
  // The canvas is as tall as the scroll box, not as every row.
  const canvasHeight = await page.locator('.timeline canvas').evaluate((c) => c.getBoundingClientRect().height);
  const boxHeight = await box.evaluate((el) => el.clientHeight);
  expect(canvasHeight).toBeLessThanOrEqual(boxHeight);
  // The last memory row, at the bottom: out of reach until scrolled to, then its value under the pointer.
  const last = rows.filter({ hasText: /^Memory in use/ }).last();
  const top = Number(await last.getAttribute('data-top'));
  const height = Number(await last.getAttribute('data-height'));
  expect(top).toBeGreaterThan(3 * boxHeight);
  await box.evaluate((el, y) => (el.scrollTop = y - 100), top);
  await rowsReady(page);
  const layer = page.getByTestId('timeline-canvas');
  const width = (await layer.boundingBox())!.width;
  await layer.hover({ position: { x: LABELS + (width - LABELS) * 0.6, y: top + height / 2 } });
  const tip = page.getByTestId('timeline-tip');
  await expect(tip).toContainText('Memory in use');
  await expect(tip).toContainText(/\d B/);
});

test('a PPU with streams of two contexts shows each context over its streams, with its share', async ({ page }) => {
  // kernels.sql, PPU 0: stream 7 of context 1 holds k1 [2000, 2400), k2 [2400, 3000), k13 [3000, 3300): busy
  // 1300; k7 [7200, 7500) and k5 [12200, 12450) moved to context 2 (same stream 7): busy 550. The PPU 1850:
  // context 1 1300/1850 = 70.3 %, context 2 550/1850 = 29.7 %; each context's one stream 100 % of it.
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'asys-ctx-')), 'contexts.asysrep');
  sqlReport(file, 'kernels.sql', 'UPDATE HGGC_KERNEL SET contextId = 2 WHERE deviceId = 0 AND start >= 7000');
  await dropFile(page, 'contexts.asysrep', readFileSync(file));
  await waitIdle(page);
  await openTimeline(page);
  await expect(page.getByTestId('tl-context')).toHaveText(['Context 1 — 70.3%', 'Context 2 — 29.7%']);
  const rows = page.getByTestId('timeline-rows').locator('li');
  const ppu0 = await rows.evaluateAll((els) =>
    els.map((el) => el.textContent ?? '').filter((t) => t.startsWith('PPU 0') || t.startsWith('Context') || t.startsWith('Stream 7')),
  );
  expect(ppu0.slice(0, 2)).toEqual([expect.stringMatching(/^PPU 0.*Context 1 — 70\.3%Stream 7 — 100\.0%$/), 'Context 2 — 29.7%Stream 7 — 100.0%']);
});

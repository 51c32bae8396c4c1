// The timeline's navigation as Nsight Systems users expect it (issue 23):
// +/- and the arrows, Ctrl+wheel, Backspace undoing zooms and filters step
// by step, Z and F on a drag selection, the right-click menu and its Go to
// (scrolling the row into view), the window kept across view switches, and
// keys acting only where the focus is. On the demo report, and the thread
// rows of a real Kineto trace.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { asysOut, DEMO_BASE, dragSelect, dropFile, holdsWithin, openAppForEachTest, openDemoTimelineAt, openTimeline, parseCsv, REAL_DATA, timelineWindow as windowOf, waitIdle, wheelTimeline } from './helpers';

openAppForEachTest({ demo: true });

const LABELS = 230; // lib/timeline LABEL_WIDTH

test('+/- zoom around the middle, the arrows pan, Backspace walks the zooms back one by one', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  const whole = await windowOf(page);
  await canvas.focus();
  await page.keyboard.press('+');
  const in1 = await windowOf(page);
  // 0.8 of the window, the middle kept.
  expect(in1.to - in1.from).toBeCloseTo((whole.to - whole.from) * 0.8, -1);
  expect((in1.from + in1.to) / 2).toBeCloseTo((whole.from + whole.to) / 2, -1);
  await page.keyboard.press('+');
  const in2 = await windowOf(page);
  expect(in2.to - in2.from).toBeCloseTo((whole.to - whole.from) * 0.64, -1);
  await page.keyboard.press('ArrowRight');
  const right = await windowOf(page);
  expect(right.from - in2.from).toBeCloseTo((in2.to - in2.from) * 0.2, -1);
  await page.keyboard.press('ArrowLeft');
  expect((await windowOf(page)).from).toBeCloseTo(in2.from, -1);
  await page.keyboard.press('-');
  expect((await windowOf(page)).to - (await windowOf(page)).from).toBeCloseTo(in2.to - in2.from + (in2.to - in2.from) * 0.25, -1);
  // Backspace: the window before the '-', then before each '+' (pans are not steps).
  await page.keyboard.press('Backspace');
  expect((await windowOf(page)).to - (await windowOf(page)).from).toBeCloseTo(in2.to - in2.from, -1);
  await page.keyboard.press('Backspace');
  expect(await windowOf(page)).toEqual(in1);
  await page.keyboard.press('Backspace');
  expect(await windowOf(page)).toEqual(whole);
});

test('Ctrl+wheel zooms at the pointer and leaves no stale tooltip', async ({ page }) => {
  await openTimeline(page);
  const whole = await windowOf(page);
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.move(box.x + LABELS + (box.width - LABELS) / 2, box.y + 60);
  await page.keyboard.down('Control');
  await wheelTimeline(page, 0, -400);
  await page.keyboard.up('Control');
  const w = await windowOf(page);
  expect(w.to - w.from).toBeLessThan((whole.to - whole.from) * 0.7);
  await expect(page.getByTestId('timeline-tip')).toHaveCount(0);
});

test('a drag selection reads its start, end and duration; Z zooms to it; F filters to it; Backspace undoes the filter', async ({ page }) => {
  await openTimeline(page);
  const whole = await windowOf(page);
  await dragSelect(page, 0.2, 0.4);
  await expect(page.getByTestId('tl-selection')).toHaveText(/^Selected \+[\d.]+ \w+ – \+[\d.]+ \w+ \([\d.]+ \w+\)$/);
  const canvas = page.getByTestId('timeline-canvas');
  await canvas.focus();
  await page.keyboard.press('z');
  const zoomed = await windowOf(page);
  expect((zoomed.to - zoomed.from) / (whole.to - whole.from)).toBeCloseTo(0.2, 2);
  await dragSelect(page, 0.25, 0.75);
  await canvas.focus();
  await page.keyboard.press('f');
  await waitIdle(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-filter-time', /^\d+\/\d+$/);
  const filtered = await windowOf(page);
  expect((filtered.to - filtered.from) / (zoomed.to - zoomed.from)).toBeCloseTo(0.5, 2);
  // One Backspace: the filter gone and the window before it; another: the whole capture.
  await page.keyboard.press('Backspace');
  await waitIdle(page);
  await expect(view).toHaveAttribute('data-filter-time', '');
  expect(await windowOf(page)).toEqual(zoomed);
  await page.keyboard.press('Backspace');
  expect(await windowOf(page)).toEqual(whole);
});

test('the right-click menu: Zoom in and Filter and Zoom in on the selection, the Go to items', async ({ page }) => {
  await openTimeline(page);
  const whole = await windowOf(page);
  await dragSelect(page, 0.5, 0.6);
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + LABELS + 20, box.y + 8, { button: 'right' });
  const menu = page.getByTestId('context-menu');
  await expect(menu.getByRole('menuitem')).toHaveText([
    'Zoom in',
    'Filter and Zoom in',
    'Go to Host API',
    'Go to Device Activity',
    'Show in table',
    'Show in Events View',
  ]);
  // Nothing picked at the axis: no event to go to, no row to list.
  await expect(menu.getByRole('menuitem', { name: 'Go to Host API' })).toBeDisabled();
  await expect(menu.getByRole('menuitem', { name: 'Show in Events View' })).toBeDisabled();
  await menu.getByRole('menuitem', { name: 'Zoom in', exact: true }).click();
  const w = await windowOf(page);
  expect((w.to - w.from) / (whole.to - whole.from)).toBeCloseTo(0.1, 2);
  await expect(menu).toHaveCount(0);
});

test('Go to Device Activity from an API call selects its kernel and scrolls its row into view', async ({ page }) => {
  const [header, ...rows] = parseCsv(asysOut(['stats', '-r', 'hggc_kern_exec_trace', '--format', 'csv', DEMO_BASE]));
  const col = (name: string) => header.indexOf(name);
  const [apiStart, apiDur, kStart, tid] = ['API Start (ns)', 'API Dur (ns)', 'Kernel Start (ns)', 'TID'].map(col);
  const call = rows[Math.floor(rows.length / 2)];
  const first = rows
    .filter((r) => r[apiStart] === call[apiStart] && r[tid] === call[tid])
    .reduce((a, b) => (BigInt(a[kStart]) <= BigInt(b[kStart]) ? a : b));
  const start = BigInt(call[apiStart]), dur = BigInt(call[apiDur]);
  await openDemoTimelineAt(page, start - dur, start + 2n * dur);
  const apiRow = page
    .getByTestId('timeline-rows')
    .locator('li')
    .filter({ has: page.getByTestId('tl-track').filter({ hasText: new RegExp(`^Thread ${call[tid]}\\b.* HGGC API`) }) })
    .first();
  const top = Number(await apiRow.getAttribute('data-top'));
  const rowHeight = Number(await apiRow.getAttribute('data-height'));
  const scroller = page.locator('.timeline-scroll');
  await scroller.evaluate((el, y) => (el.scrollTop = Math.max(0, y - 60)), top);
  await waitIdle(page);
  const details = page.getByTestId('tl-details');
  const canvas = page.getByTestId('timeline-canvas');
  let found = false;
  for (let y = top + 4; y < top + rowHeight && !found; y += 8) {
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + y, { button: 'right' });
    await waitIdle(page);
    found = await holdsWithin(
      async () =>
        (await details.getAttribute('data-selected-kind')) === 'api' &&
        (await details.getAttribute('data-selected-start')) === call[apiStart],
    );
    if (!found) await page.keyboard.press('Escape');
  }
  expect(found, `the call at ${call[apiStart]} was right-clicked`).toBe(true);
  const menu = page.getByTestId('context-menu');
  await expect(menu.getByRole('menuitem', { name: 'Go to Host API' })).toBeDisabled();
  await menu.getByRole('menuitem', { name: 'Go to Device Activity' }).click();
  await waitIdle(page);
  await expect(details).toHaveAttribute('data-selected-kind', 'kernel');
  await expect(details).toHaveAttribute('data-selected-start', first[kStart]);
  // The kernel's row (the PPU rows are at the top, the API row far below) is in view.
  const track = await details.getAttribute('data-selected-track');
  const row = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
  const rowTop = Number(await row.getAttribute('data-top')) - 24; // layout top (less the axis)
  const h = Number(await row.getAttribute('data-height'));
  const { scrollTop, clientHeight } = await scroller.evaluate((el) => ({ scrollTop: el.scrollTop, clientHeight: el.clientHeight }));
  expect(rowTop).toBeGreaterThanOrEqual(scrollTop);
  expect(rowTop + h).toBeLessThanOrEqual(scrollTop + clientHeight - 24);
});

test('the window survives a trip to Statistics and back; S typed outside the timeline is not a timeline key', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  await canvas.focus();
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  const w = await windowOf(page);
  await page.getByTestId('view-stats').click();
  await waitIdle(page);
  await page.getByTestId('view-timeline').click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  expect(await windowOf(page)).toEqual(w);
  // The permalink carries it too.
  await expect.poll(() => decodeURIComponent(page.url())).toMatch(/window=0:\d+\/\d+/);
  // Backspace still knows the zoom made before the trip.
  await canvas.focus();
  await page.keyboard.press('Backspace');
  expect((await windowOf(page)).to - (await windowOf(page)).from).toBeGreaterThan(w.to - w.from);
});

test('the shortcuts dialog lists the timeline keys that work', async ({ page }) => {
  await page.keyboard.press('?');
  const dialog = page.getByTestId('shortcuts');
  await expect(dialog).toBeVisible();
  for (const k of ['+', '-', '←', '→', 'Ctrl+wheel', 'Z', 'F', 'Backspace']) await expect(dialog.locator('kbd', { hasText: new RegExp(`^${k.replace(/[+]/g, '\\+')}$`) })).toHaveCount(1);
});

const ALEXNET_TRACE = path.join(REAL_DATA, 'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');

test('a Kineto trace\'s thread rows name each thread once', async ({ page }) => {
  test.skip(!existsSync(ALEXNET_TRACE), `${ALEXNET_TRACE} is not here`);
  await dropFile(page, path.basename(ALEXNET_TRACE), readFileSync(ALEXNET_TRACE), 'application/gzip');
  await waitIdle(page);
  await openTimeline(page);
  const labels = (await page.getByTestId('tl-track').allTextContents()).filter((l) => l.startsWith('Thread '));
  expect(labels.length).toBeGreaterThan(0);
  for (const l of labels) expect(l, l).not.toMatch(/\(thread \d+/i);
});

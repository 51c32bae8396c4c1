// Occupancy histograms on the merged rows (issue 23, the manual: "Zoomed
// out, rows render as occupancy histograms"): the `[All Streams]` row (a
// context's streams merged) and the device row (a PPU's kernels over its
// memory operations, each half its own histogram). On the demo, PPU 0's
// streams hold 1,042 events together, fewer than the ~1,170 px of the
// default window: in a 1,000 px wide window (~750 px of plot) the whole
// capture holds more events than pixels and both rows are histograms, as
// an ordinary row is. A pixel's busy fraction under the pointer is checked
// against the union of the stream rows' events inside that pixel's span,
// computed here from the report's tables with the sqlite3 shell, not by the
// engine; a click still selects an event on its own stream.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_BASE, dropFile, holdsWithin, importedCopy, openAppForEachTest, openTimeline, REAL_DATA, timelineRows, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';

test.use({ viewport: { width: 1000, height: 860 } });
openAppForEachTest({ demo: true });

const LABELS = 230;
const BUSY = /^busy \d+(\.\d)?% of this pixel's time/;

type Span = [bigint, bigint];

/** Device 0's events from the tables: kernels (PCCL ones too), memory operations (memcpys, memsets), optionally of some streams only. */
function eventsOf(device: number, what: 'kernels' | 'memory' | 'all', streams?: number[], db = DEMO_BASE): Span[] {
  const where = `deviceId = ${device} AND end IS NOT NULL${streams ? ` AND streamId IN (${streams.join(', ')})` : ''}`;
  const parts = [
    ...(what !== 'memory' ? [`SELECT start, end FROM HGGC_KERNEL WHERE ${where}`] : []),
    ...(what !== 'kernels' ? [`SELECT start, end FROM HGGC_MEMCPY WHERE ${where}`, `SELECT start, end FROM HGGC_MEMSET WHERE ${where}`] : []),
  ];
  return sql(parts.join(' UNION ALL '), db).map(([s, e]) => [BigInt(s), BigInt(e)]);
}

/** Scrolls the row into view; its top (layer px). */
async function scrollTo(page: Page, track: string): Promise<number> {
  const top = Number(await page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`).getAttribute('data-top'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  return top;
}

/**
 * Hovers along the row at `y` (layer px): per column that says it is a
 * histogram, its span (absolute ns) and busy fraction as the tooltip gives them.
 */
async function columnsAlong(page: Page, y: number) {
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const tip = page.getByTestId('timeline-tip');
  const out: { from: bigint; to: bigint; busy: number; line: string }[] = [];
  for (let f = 0.01; f < 1; f += 0.03) {
    await page.mouse.move(box.x + LABELS + (box.width - LABELS) * f, box.y + y);
    if ((await tip.count()) === 0) continue;
    const line = (await tip.innerText()).split('\n')[0];
    const from = await tip.getAttribute('data-column-from');
    if (!BUSY.test(line) || from === null) continue;
    out.push({ from: BigInt(from), to: BigInt((await tip.getAttribute('data-column-to'))!), busy: Number(await tip.getAttribute('data-busy')), line });
  }
  return out;
}

/** Every column's busy fraction equals the union of `spans` inside its span over its length; some are partly busy. */
function expectExact(columns: { from: bigint; to: bigint; busy: number; line: string }[], spans: Span[], what: string, somePartly = true) {
  expect(columns.length, `${what}: columns that are histograms`).toBeGreaterThan(10);
  let partly = 0;
  for (const c of columns) {
    const want = Number(unionIn(spans, c.from, c.to)) / Number(c.to - c.from);
    expect(c.busy, `${what}: [${c.from}, ${c.to})`).toBeCloseTo(want, 6);
    expect(c.line).toContain(`busy ${(want * 100).toFixed(1)}%`);
    if (want > 0.001 && want < 0.999) partly++;
  }
  if (somePartly) expect(partly, `${what}: columns partly busy`).toBeGreaterThan(0);
}

test('zoomed out past one pixel an event, [All Streams] is a histogram of its streams\' union; a click still selects an event of a stream', async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  // The whole capture (press - until the window stops growing).
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('-');
  await waitIdle(page);
  const rows = (await timelineRows(page)).filter((r) => r.group.startsWith('PPU 0'));
  const all = rows.find((r) => r.label.startsWith('[All Streams]'))!;
  expect(all, "PPU 0's [All Streams] row").toBeDefined();
  // Its sources: the streams of its context, listed after it.
  const streams = rows.filter((r) => /^Stream \d+ /.test(r.label) && r.context === all.context);
  expect(streams.length).toBeGreaterThan(1);
  const ids = streams.map((r) => Number(/^Stream (\d+)/.exec(r.label)![1]));
  const spans = eventsOf(0, 'all', ids);
  expect(spans.length, 'more events than the ~750 px plot').toBeGreaterThan(800);
  const top = await scrollTo(page, all.track);
  await expect(canvas).toHaveAttribute('data-histograms', /^[1-9]\d*$/);
  expectExact(await columnsAlong(page, top + 8), spans, '[All Streams]');
  // A click picks the event under the pointer, on its own stream.
  const details = page.getByTestId('tl-details');
  const box = (await canvas.boundingBox())!;
  let picked = '';
  for (let f = 0.02; f < 1 && !picked; f += 0.02) {
    await canvas.click({ position: { x: LABELS + (box.width - LABELS) * f, y: top + 8 } });
    if (await holdsWithin(async () => (await details.getAttribute('data-selected-track')) !== null, 500))
      picked = (await details.getAttribute('data-selected-track'))!;
  }
  expect(streams.map((r) => r.track), 'a click on the histogram picks a stream\'s event').toContain(picked);
});

test("the device row is two histograms: its kernels' union on its upper lane, its memory operations' on its lower", async ({ page }) => {
  await openTimeline(page);
  const canvas = page.getByTestId('timeline-canvas');
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('-');
  await waitIdle(page);
  const device = (await timelineRows(page)).find((r) => r.group.startsWith('PPU 0') && r.deviceRow)!;
  expect(device, "PPU 0's device row").toBeDefined();
  const top = await scrollTo(page, device.track);
  await expect(canvas).toHaveAttribute('data-histograms', /^[1-9]\d*$/);
  expectExact(await columnsAlong(page, top + 8), eventsOf(0, 'kernels'), 'device row, kernels');
  expectExact(await columnsAlong(page, top + 16 + 8), eventsOf(0, 'memory'), 'device row, memory operations');
  // A click on the lower lane still selects a memory operation (on its own stream).
  const details = page.getByTestId('tl-details');
  const box = (await canvas.boundingBox())!;
  let kind = '';
  for (let f = 0.01; f < 1 && !/^(memcpy|memset)$/.test(kind); f += 0.01) {
    await canvas.click({ position: { x: LABELS + (box.width - LABELS) * f, y: top + 16 + 8 } });
    if (await holdsWithin(async () => /^(memcpy|memset)$/.test((await details.getAttribute('data-selected-kind')) ?? ''), 300))
      kind = (await details.getAttribute('data-selected-kind'))!;
  }
  expect(kind).toMatch(/^(memcpy|memset)$/);
  // Zoomed in, slices again: no histogram.
  for (let i = 0; i < 10; i++) await page.keyboard.press('+');
  await waitIdle(page);
  await expect(canvas).toHaveAttribute('data-histograms', '0');
});

// Real files, imported by the CLI for the oracle: a Kineto trace whose PPU 3
// runs 8,508 kernels on two streams of one context (an [All Streams] row),
// and an Nsight Systems export of two GPUs of one
// stream each (no [All Streams] row: single children are compacted) with
// 1,721 kernels and 463 memory operations apiece.
const REAL = [
  { name: 'a real Kineto trace', file: path.join(REAL_DATA, 'kineto/hta/trace_diff/control/control.json.gz'), type: 'application/gzip', device: 3, allStreams: true },
  { name: 'a real Nsight Systems export', file: path.join(REAL_DATA, 'nsys-sqlite/nsys-ai/h100_2gpu_1s.sqlite'), type: '', device: 0, allStreams: false },
];

for (const real of REAL) {
  test(`${real.name}: zoomed out, the merged rows are exact histograms against SQL over the CLI's import`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(150_000);
    const db = importedCopy(real.file, 'asys-occ-merged-');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await expect(page.getByTestId('summary-file')).toHaveText(path.basename(real.file));
    await openTimeline(page);
    const canvas = page.getByTestId('timeline-canvas');
    await canvas.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('-');
    await waitIdle(page);
    const rows = (await timelineRows(page)).filter((r) => r.group.startsWith(`PPU ${real.device}`));
    const device = rows.find((r) => r.deviceRow)!;
    expect(device, `PPU ${real.device}'s device row`).toBeDefined();
    let top = await scrollTo(page, device.track);
    await expect(canvas).toHaveAttribute('data-histograms', /^[1-9]\d*$/);
    expectExact(await columnsAlong(page, top + 8), eventsOf(real.device, 'kernels', undefined, db), 'device row, kernels');
    expectExact(await columnsAlong(page, top + 16 + 8), eventsOf(real.device, 'memory', undefined, db), 'device row, memory operations', false);
    const all = rows.find((r) => r.label.startsWith('[All Streams]'));
    expect(all !== undefined, `an [All Streams] row among ${rows.map((r) => r.label).join(', ')}`).toBe(real.allStreams);
    if (!all) return;
    const ids = rows.filter((r) => /^Stream \d+ /.test(r.label) && r.context === all.context).map((r) => Number(/^Stream (\d+)/.exec(r.label)![1]));
    expect(ids.length).toBeGreaterThan(1);
    top = await scrollTo(page, all.track);
    expectExact(await columnsAlong(page, top + 8), eventsOf(real.device, 'all', ids, db), '[All Streams]');
  });
}

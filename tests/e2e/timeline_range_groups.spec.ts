// "Show kernels grouped by: HGTX range" (issue 23, asight-manual-digest.md
// "Timeline view"; docs/timeline.md): under a stream, a row per name of its
// kernels' innermost HGTX range and one of the kernels in no range, the
// busiest first, each its share of the stream's busy time, recomputed for
// the statistics range; clicks, Go to Host API, Show in table and the Events
// view work on them. Expected rows come from the CLI, not the engine's
// timeline: each kernel's ranges from hgtx_kern_trace (the HGTX rules' own
// association, a kernel's ranges by range start; through a graph node only:
// API Start "-"), its innermost the last of those through a graph node only
// if any, else its last; every kernel of a stream from
// hggc_ppu_kern_gb_trace; the busy times are unions computed here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatInt } from '../../web/src/lib/format';
import { englishTexts } from './english_texts';
import { asysOut, DEMO_BASE, dragSelect, dropFile, eventsPane, eventsTable, holdsWithin, importedCopy, openAppForEachTest, openDemo, openEventsOf, openTimeline, parseCsv, REAL_TRACE_AND_EXPORT, timelineRows, waitIdle } from './helpers';
import { unionIn } from './sql_oracle';

openAppForEachTest();

const ALL = [-(2n ** 62n), 2n ** 62n] as const;
const LABELS = 230;
const PCCL = /^(void )?(pcclKernel|ncclKernel|ncclDevKernel)/;

/** A share as the rows show it ("62.0%"). */
const shown = (part: bigint, whole: bigint) => `${((Number(part) / Number(whole)) * 100).toFixed(1)}%`;

type Kernel = { start: bigint; end: bigint; key: string };

/** A stream's kernels (not its PCCL kernels, which have a row of their own), each keyed by its place and span. */
function streamKernels(report: string, device: number, stream: number): Kernel[] {
  const [h, ...rows] = parseCsv(asysOut(['stats', '-r', 'hggc_ppu_kern_gb_trace', '--format', 'csv', report]));
  const col = (name: string) => h.indexOf(name);
  return rows
    .filter((r) => Number(r[col('Device ID')]) === device && Number(r[col('Stream ID')]) === stream && r[col('Duration (ns)')] !== '-')
    .filter((r) => !PCCL.test(r[col('Name')]))
    .map((r) => {
      const start = BigInt(r[col('Start (ns)')]);
      const end = start + BigInt(r[col('Duration (ns)')]);
      return { start, end, key: `${device}/${stream}/${start}/${end}` };
    });
}

/** Each associated kernel's innermost range (by the key of streamKernels), from hgtx_kern_trace. */
function innermostRanges(report: string): Map<string, string> {
  const [h, ...rows] = parseCsv(asysOut(['stats', '-r', 'hgtx_kern_trace', '--format', 'csv', report]));
  const col = (name: string) => h.indexOf(name);
  const byKernel = new Map<string, { key: string; last: string; lastViaGraph: string | null }>();
  for (const r of rows) {
    const id = r[col('Kernel Exec ID')];
    const start = BigInt(r[col('Kernel Start (ns)')]);
    const key = `${r[col('Device ID')]}/${r[col('Stream ID')]}/${start}/${start + BigInt(r[col('Kernel Duration (ns)')])}`;
    const k = byKernel.get(id) ?? { key, last: '', lastViaGraph: null };
    k.last = r[col('Range Name')];
    if (r[col('API Start (ns)')] === '-') k.lastViaGraph = r[col('Range Name')];
    byKernel.set(id, k);
  }
  return new Map([...byKernel.values()].map((k) => [k.key, k.lastViaGraph ?? k.last]));
}

const NO_RANGE = '(no HGTX range)';
/** The engine keeps a stream's 50 busiest range names' rows; the rest are one row, last. */
const MAX_ROWS = 50;
const otherEn = (n: number) => `(${formatInt(n)} other HGTX ranges)`;

/**
 * A stream's rows by HGTX range as the timeline must show them: the busiest
 * first over the whole capture (ties by name), each with its share of the
 * stream's busy time inside [from, to).
 */
function expectedRows(
  report: string,
  device: number,
  stream: number,
  from: bigint = ALL[0],
  to: bigint = ALL[1],
  outside = NO_RANGE,
  other = otherEn,
): string[] {
  const kernels = streamKernels(report, device, stream);
  const inner = innermostRanges(report);
  const byRange = new Map<string, [bigint, bigint][]>();
  for (const k of kernels) {
    const name = inner.get(k.key) ?? NO_RANGE;
    byRange.set(name, [...(byRange.get(name) ?? []), [k.start, k.end]]);
  }
  const streamBusy = unionIn(streamWork(report, device, stream), from, to);
  const order = (a: { name: string; busy: bigint }, b: { name: string; busy: bigint }) =>
    a.busy !== b.busy ? (a.busy > b.busy ? -1 : 1) : a.name < b.name ? -1 : 1;
  const groups = [...byRange.entries()].map(([name, spans]) => ({ name, spans, busy: unionIn(spans, ...ALL) }));
  const named = groups.filter((g) => g.name !== NO_RANGE).sort(order);
  const kept = [...named.slice(0, MAX_ROWS), ...groups.filter((g) => g.name === NO_RANGE)].sort(order);
  const rest = named.slice(MAX_ROWS);
  const rows = kept.map((g) => `${g.name === NO_RANGE ? outside : g.name} — ${shown(unionIn(g.spans, from, to), streamBusy)}`);
  if (rest.length > 0) rows.push(`${other(rest.length)} — ${shown(unionIn(rest.flatMap((g) => g.spans), from, to), streamBusy)}`);
  return rows;
}

/** The first PPU's first stream row: its device, stream and track id. */
async function firstStream(page: Page) {
  const rows = (await timelineRows(page)).filter((r) => r.group.startsWith('PPU '));
  const row = rows.find((r) => /^Stream \d+/.test(r.label))!;
  return { device: Number(/^PPU (\d+)/.exec(row.group)![1]), stream: Number(/^Stream (\d+)/.exec(row.label)![1]), track: row.track, group: row.group };
}

/** The labels of the rows right under `track` (its rows by HGTX range), until the next row of the PPU's own or the stream's graph rows (which follow them). */
async function rowsUnder(page: Page, track: string) {
  const rows = await timelineRows(page);
  const at = rows.findIndex((r) => r.track === track);
  const next = rows.findIndex((r, i) => i > at && (/^(Stream \d+|PCCL kernels|\[All Streams\]|HGTX projection|Memory in use)/.test(r.label) || r.deviceRow || r.graphOf === track || r.group !== rows[at].group));
  return rows.slice(at + 1, next < 0 ? undefined : next);
}

/** A stream's work as its row draws it (its busy time): its kernels but PCCL kernels, memcpys and memsets, from hggc_ppu_trace. */
function streamWork(report: string, device: number, stream: number): [bigint, bigint][] {
  const [h, ...rows] = parseCsv(asysOut(['stats', '-r', 'hggc_ppu_trace', '--format', 'csv', report]));
  const col = (name: string) => h.indexOf(name);
  return rows
    .filter((r) => new RegExp(`\\(${device}\\)$`).test(r[col('Device')]) && Number(r[col('Strm')]) === stream && r[col('Duration (ns)')] !== '-')
    .filter((r) => !PCCL.test(r[col('Name')]))
    .map((r) => [BigInt(r[col('Start (ns)')]), BigInt(r[col('Start (ns)')]) + BigInt(r[col('Duration (ns)')])]);
}

test('the demo: a row per innermost HGTX range under the stream, the kernels in no range apart, shares recomputed for the statistics range', async ({ page }) => {
  test.setTimeout(120_000);
  await openDemo(page);
  await openTimeline(page);
  const { device, stream, track } = await firstStream(page);
  const tracksBefore = (await page.getByTestId('timeline-window').textContent())!.match(/[\d,]+ tracks/)![0];
  await page.getByTestId('tl-kernel-grouping').selectOption('hgtxRange');
  await waitIdle(page);
  const expected = expectedRows(DEMO_BASE, device, stream);
  expect(expected.length).toBeGreaterThan(1);
  await expect.poll(async () => (await rowsUnder(page, track)).map((r) => r.label), { timeout: 30_000 }).toEqual(expected);
  // The toolbar's counts are the report's: the rows draw the same kernels again.
  await expect(page.getByTestId('timeline-window')).toContainText(tracksBefore);

  // Filter and Zoom in: the same rows, each share now of the stream's busy time inside the range.
  await dragSelect(page, 0.3, 0.45);
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-shares', 'range');
  const zero = BigInt((await view.getAttribute('data-zero'))!);
  const [from, to] = (await view.getAttribute('data-filter-time'))!.split('/').map((v) => zero + BigInt(v));
  const inRange = expectedRows(DEMO_BASE, device, stream, from, to);
  expect(inRange).not.toEqual(expected);
  await expect.poll(async () => (await rowsUnder(page, track)).map((r) => r.label), { timeout: 30_000 }).toEqual(inRange);
  await page.getByTestId('tl-clear-range').click();
  await waitIdle(page);

  // Base name again: those rows instead; None: no rows under the stream.
  await page.getByTestId('tl-kernel-grouping').selectOption('baseName');
  await waitIdle(page);
  await expect.poll(async () => (await rowsUnder(page, track)).map((r) => r.label.replace(/ — .*$/, '')), { timeout: 30_000 }).not.toContain(NO_RANGE);
  await page.getByTestId('tl-kernel-grouping').selectOption('none');
  await waitIdle(page);
  expect(await rowsUnder(page, track)).toEqual([]);
});

test('the demo: a range row\'s Events view, Show on timeline, Go to Host API and Show in table', async ({ page }) => {
  test.setTimeout(150_000);
  await openDemo(page);
  await openTimeline(page);
  const { device, stream, track } = await firstStream(page);
  await page.getByTestId('tl-kernel-grouping').selectOption('hgtxRange');
  await waitIdle(page);
  await expect.poll(async () => (await rowsUnder(page, track)).length, { timeout: 30_000 }).toBeGreaterThan(1);
  const [first] = await rowsUnder(page, track);
  const name = first.label.replace(/ — .*$/, '');
  // Its kernels, from the CLI: the earliest is the Events view's first row.
  const inner = innermostRanges(DEMO_BASE);
  const mine = streamKernels(DEMO_BASE, device, stream)
    .filter((k) => (inner.get(k.key) ?? NO_RANGE) === name)
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  expect(mine.length).toBeGreaterThan(0);
  const item = page.getByTestId('timeline-rows').locator(`li[data-track="${first.track}"]`);
  await openEventsOf(page, item);
  await expect(eventsPane(page)).toHaveAttribute('data-track', first.track);
  await expect(eventsPane(page)).toHaveAttribute('data-label', name);

  // Show on timeline: the kernel is selected and spotlit on the range row.
  await eventsTable(page).locator('.rows .tr[data-row="0"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show on timeline', exact: true }).click();
  await waitIdle(page);
  const details = page.getByTestId('tl-details');
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-spotlight', `${first.track}:0`);
  await expect(details).toHaveAttribute('data-selected-track', first.track);
  await expect(details).toHaveAttribute('data-selected-kind', 'kernel');
  await expect(details).toHaveAttribute('data-selected-start', String(mine[0].start));

  // Its right-click in the middle of the plot (where Show on timeline centred it): Show in table selects its hggc_ppu_trace row.
  const rightClickMiddle = async () => {
    const top = Number(await item.getAttribute('data-top'));
    const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
    await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + top + 8, { button: 'right' });
    await waitIdle(page);
  };
  await rightClickMiddle();
  expect(await holdsWithin(async () => (await details.getAttribute('data-selected-track')) === first.track)).toBe(true);
  const menu = page.getByTestId('context-menu');
  await expect(menu.getByRole('menuitem', { name: 'Go to Host API' })).toBeEnabled();
  await menu.getByRole('menuitem', { name: 'Show in table' }).click();
  await expect(page.locator('[data-testid=result][data-rule="hggc_ppu_trace"]')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await waitIdle(page);
  const selected = page.locator('[data-testid=result-table] .rows .tr.selected');
  await expect(selected).toHaveCount(1);
  const headersShown = await page.locator('[data-testid=result-table] .thead [role=columnheader]').allInnerTexts();
  const startAt = headersShown.map((h) => h.replace(/[▲▼]/g, '').trim()).indexOf('Start (ns)');
  await expect(selected.locator(`> :nth-child(${startAt + 1})`)).toHaveAttribute('title', new RegExp(`\\b${mine[0].start}\\b`));

  // Back on the timeline (the pane stays open), Show on timeline again, then Go to Host API from it: its launching call (hggc_kern_exec_trace's API Start).
  await openTimeline(page);
  await expect(eventsPane(page)).toHaveAttribute('data-track', first.track);
  await eventsTable(page).locator('.rows .tr[data-row="0"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show on timeline', exact: true }).click();
  await waitIdle(page);
  await expect(details).toHaveAttribute('data-selected-track', first.track);
  await rightClickMiddle();
  await menu.getByRole('menuitem', { name: 'Go to Host API' }).click();
  await waitIdle(page);
  const [eh, ...exec] = parseCsv(asysOut(['stats', '-r', 'hggc_kern_exec_trace', '--format', 'csv', DEMO_BASE]));
  const call = exec.find((r) => r[eh.indexOf('Kernel Start (ns)')] === String(mine[0].start) && Number(r[eh.indexOf('Device ID')] ?? device) === device);
  expect(call).toBeDefined();
  await expect(details).toHaveAttribute('data-selected-kind', /^api/);
  await expect(details).toHaveAttribute('data-selected-start', call![eh.indexOf('API Start (ns)')]);
});

const REAL = REAL_TRACE_AND_EXPORT;

for (const real of REAL) {
  test(`${real.name}: its first stream's kernels by HGTX range as hgtx_kern_trace associates them, in English and in Chinese`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(150_000);
    const db = importedCopy(real.file, 'asys-real-');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await openTimeline(page);
    const { device, stream, track } = await firstStream(page);
    await page.getByTestId('tl-kernel-grouping').selectOption('hgtxRange');
    await waitIdle(page);
    const expected = expectedRows(db, device, stream);
    expect(expected.length).toBeGreaterThan(0);
    await expect.poll(async () => (await rowsUnder(page, track)).map((r) => r.label), { timeout: 60_000 }).toEqual(expected);
    // Under lang=zh: the no-range row's label is Chinese, and the timeline shows no English of its own.
    await page.getByTestId('lang-switch').selectOption('zh');
    await waitIdle(page);
    const zh = expectedRows(db, device, stream, ALL[0], ALL[1], '（无 HGTX range）', (n) => `（其余 ${formatInt(n)} 个 HGTX range）`);
    await expect.poll(async () => (await rowsUnder(page, track)).map((r) => r.label), { timeout: 30_000 }).toEqual(zh);
    expect(await englishTexts(page)).toEqual([]);
  });
}

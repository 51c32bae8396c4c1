// The manual's host-side timeline rows (issue 23, asight-manual-digest.md
// "Timeline view"; docs/timeline.md, "Host rows"): a process's HGTX
// start/end ranges on lanes, a thread's library API rows, a process's
// memory allocation failures, each with its busy share (over the capture and
// recomputed for the statistics range), tooltip, details and links. Every
// value is checked against the demo report's own tables read with the
// sqlite3 shell, not by the engine; on a real Kineto trace and a real Nsight
// Systems export (which have none of these events) no such row is shown
// and the timeline works as before.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dragSelect, dropFile, holdsWithin, importedCopy, openAppForEachTest, openDemoTimelineAt, openEventsOf, openTimeline, REAL_TRACE_AND_EXPORT, timelineRowItems, timelineRows, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';

openAppForEachTest({ demo: true });

const LABELS = 230;
const ALL = [-(2n ** 62n), 2n ** 62n] as const;
type Span = [bigint, bigint];

const spans = (rows: string[][], at = 0): Span[] => rows.map((r) => [BigInt(r[at]), BigInt(r[at + 1])]);
/** A share as the rows show it ("62.0%"). */
const shown = (part: bigint, whole: bigint) => `${((Number(part) / Number(whole)) * 100).toFixed(1)}%`;
/** |a ∩ b| inside [from, to): |a| + |b| - |a ∪ b|. */
const overlap = (a: Span[], b: Span[], from: bigint, to: bigint) => unionIn(a, from, to) + unionIn(b, from, to) - unionIn([...a, ...b], from, to);

const PID = '((globalTid >> 24) & 16777215)';
const NAME = "coalesce(h.text, (SELECT value FROM StringIds WHERE id = h.textId))";

/** The demo's processes (pid), in the timeline's order. */
function processes(): number[] {
  return sql(`SELECT DISTINCT ${PID} FROM HGGC_API ORDER BY globalTid`).map((r) => Number(r[0]));
}

/** A process's work, as the timeline counts its busy time: its HGGC API calls, closed push/pop ranges and OSRT calls. */
function workOf(pid: number): Span[] {
  return spans(
    sql(`SELECT start, end FROM HGGC_API WHERE ${PID} = ${pid} AND end IS NOT NULL
      UNION ALL SELECT start, end FROM HGTX_EVENTS WHERE eventType = 59 AND end IS NOT NULL AND ${PID} = ${pid}
      UNION ALL SELECT start, end FROM OSRT_API WHERE ${PID} = ${pid} AND end IS NOT NULL`),
  );
}

/** A process's HGTX start/end ranges: start, end (NULL: never ended -> ''), starting and ending thread, name. */
function startEndOf(pid: number): string[][] {
  return sql(`SELECT h.start, coalesce(h.end, ''), h.globalTid, coalesce(h.endGlobalTid, ''), ${NAME} FROM HGTX_EVENTS h
    WHERE h.eventType = 60 AND ${PID.replace('globalTid', 'h.globalTid')} = ${pid} ORDER BY h.start`);
}

/** A process's failed allocation calls: start, end, thread, name, return value. */
function failuresOf(pid: number): string[][] {
  return sql(`SELECT a.start, a.end, a.globalTid, s.value, a.returnValue FROM HGGC_API a JOIN StringIds s ON s.id = a.nameId
    WHERE a.returnValue != 0 AND lower(s.value) LIKE '%malloc%' AND ${PID.replace('globalTid', 'a.globalTid')} = ${pid} ORDER BY a.start`);
}

/** A thread's closed push/pop ranges of a library (by its annotation's prefix): start, end, name. */
function libraryRanges(tid: number, prefix: string): string[][] {
  return sql(`SELECT h.start, h.end, ${NAME} FROM HGTX_EVENTS h WHERE h.eventType = 59 AND h.end IS NOT NULL
    AND (h.globalTid & 16777215) = ${tid} AND ${NAME} LIKE '${prefix}%' ORDER BY h.start`);
}

/** The most of `s` that run at once (touching ones do not): the lanes a row of them takes. */
function concurrency(s: Span[]): number {
  const edges = s.flatMap(([a, b]): [bigint, number][] => [[a, 1], [b, -1]]);
  edges.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
  let running = 0, most = 0;
  for (const [, step] of edges) most = Math.max(most, (running += step));
  return Math.max(1, most);
}

/** The group heading of process `pid` as the rows name it. */
const groupOf = (pid: number) => new RegExp(`^Process ${pid}\\b`);

/** Timeline row `track`'s top and height, scrolled into view; the pointer layer's box. */
async function rowPlace(page: Page, track: string) {
  const li = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
  const top = Number(await li.getAttribute('data-top'));
  const height = Number(await li.getAttribute('data-height'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  // Its slices in (a pointer over a row whose slices are still on their way shows nothing).
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-rows-ready', 'true');
  return { top, height, box: (await page.getByTestId('timeline-canvas').boundingBox())! };
}

/** Hovers the middle of timeline row `track`, lane by lane, until the tooltip holds `text`; the tooltip's text. */
async function hoverRow(page: Page, track: string, text: string): Promise<string> {
  const { top, height, box } = await rowPlace(page, track);
  const tip = page.getByTestId('timeline-tip');
  let last = '';
  // Lane by lane, a few rounds: each move a pixel aside makes a new pointer event.
  for (let round = 0; round < 4; round++) {
    for (let y = top + 8; y < top + height; y += 16) {
      await page.mouse.move(box.x + LABELS + (box.width - LABELS) / 2 + (round % 2), box.y + y);
      if (await holdsWithin(async () => ((await tip.count()) > 0 ? ((last = (await tip.textContent()) ?? '').includes(text)) : false), 500)) return last;
    }
  }
  return last;
}

/** The x (page px) of absolute time `at` in the timeline's window (its offsets count from data-origin). */
async function xOf(page: Page, at: bigint, box: { x: number; width: number }): Promise<number> {
  const origin = BigInt((await page.getByTestId('timeline-view').getAttribute('data-origin'))!);
  const t = page.getByTestId('timeline');
  const from = Number(await t.getAttribute('data-from')), to = Number(await t.getAttribute('data-to'));
  return box.x + LABELS + ((Number(at - origin) - from) / (to - from)) * (box.width - LABELS);
}

/**
 * Clicks timeline row `track`, lane by lane, at the time `at` (absolute ns;
 * default the plot's middle) until the event starting at `start` (absolute
 * ns) is selected.
 */
async function clickRow(page: Page, track: string, start: string, button: 'left' | 'right' = 'left', at?: bigint) {
  const details = page.getByTestId('tl-details');
  // A few rounds, the row's place and the time's x read again each time: a
  // window still being settled (kept inside the capture) moves both.
  for (let round = 0; round < 3; round++) {
    const { top, height, box } = await rowPlace(page, track);
    const x = at === undefined ? box.x + LABELS + (box.width - LABELS) / 2 : await xOf(page, at, box);
    for (let y = top + 8; y < top + height; y += 16) {
      await page.mouse.click(x, box.y + y, { button });
      await waitIdle(page);
      const picked = async () =>
        (await details.getAttribute('data-selected-track')) === track && (await details.getAttribute('data-selected-start')) === start;
      if (await holdsWithin(picked, 500)) return;
      if (button === 'right') await page.keyboard.press('Escape');
    }
  }
  throw new Error(`no event starting at ${start} on row ${track}`);
}

test('each process has its HGTX start/end row: its ranges on lanes, its share the process\'s busy time inside them', async ({ page }) => {
  await openTimeline(page);
  const rows = await timelineRows(page);
  const pids = processes();
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) {
    const mine = rows.filter((r) => groupOf(pid).test(r.group));
    const ranges = startEndOf(pid);
    expect(ranges.length, `process ${pid} has start/end ranges`).toBeGreaterThan(0);
    // One never ended in the demo (the checkpoint still being written), one ends on another thread.
    const closed = spans(ranges.filter((r) => r[1] !== ''));
    const row = mine.find((r) => r.label.startsWith('HGTX start/end'));
    expect(row, `process ${pid}'s start/end row`).toBeDefined();
    // Before the process's threads.
    expect(mine.indexOf(row!)).toBeLessThan(mine.findIndex((r) => r.label.startsWith('Thread ')));
    const work = workOf(pid);
    expect(row!.label).toBe(`HGTX start/end — ${shown(overlap(closed, work, ...ALL), unionIn(work, ...ALL))}`);
    // Its lanes: the most of its ranges that run at once (an unended one an instant).
    const instants = ranges.filter((r) => r[1] === '').map((r): Span => [BigInt(r[0]), BigInt(r[0])]);
    const li = page.getByTestId('timeline-rows').locator(`li[data-track="${row!.track}"]`);
    expect(Number(await li.getAttribute('data-height'))).toBe(16 * concurrency([...closed, ...instants]));
  }
  // Across the demo: a range ended on another thread and one never ended.
  const every = pids.flatMap(startEndOf);
  expect(every.some((r) => r[3] !== '' && r[3] !== r[2])).toBe(true);
  expect(every.some((r) => r[1] === '')).toBe(true);
});

test('a start/end range\'s tooltip and details name its threads; an unended one says it never ended', async ({ page }) => {
  const ranges = processes().flatMap(startEndOf);
  const crossing = ranges.find((r) => r[1] !== '' && r[3] !== '' && r[3] !== r[2])!;
  const [start, end] = [BigInt(crossing[0]), BigInt(crossing[1])];
  const tid = (t: string) => String(BigInt(t) & 0xffffffn);
  await openDemoTimelineAt(page, start - (end - start), end + (end - start));
  const rows = await timelineRows(page);
  const pid = Number((BigInt(crossing[2]) >> 24n) & 0xffffffn);
  const row = rows.find((r) => groupOf(pid).test(r.group) && r.label.startsWith('HGTX start/end'))!;
  const tip = await hoverRow(page, row.track, crossing[4]);
  expect(tip).toContain(crossing[4]);
  expect(tip).toContain(`Started on thread ${tid(crossing[2])}, ended on thread ${tid(crossing[3])}`);
  await clickRow(page, row.track, crossing[0]);
  const details = page.getByTestId('tl-details');
  await expect(details).toHaveAttribute('data-selected-kind', 'hgtxStartEnd');
  await expect(details).toHaveAttribute('data-selected-start', crossing[0]);
  await expect(page.getByTestId('tl-host-details')).toContainText(`ended on thread ${tid(crossing[3])}`);

  // The unended one: an instant at its start.
  const open = ranges.find((r) => r[1] === '')!;
  const at = BigInt(open[0]);
  await openDemoTimelineAt(page, at - 1_000_000n, at + 1_000_000n);
  const openPid = Number((BigInt(open[2]) >> 24n) & 0xffffffn);
  const openRow = (await timelineRows(page)).find((r) => groupOf(openPid).test(r.group) && r.label.startsWith('HGTX start/end'))!;
  // (The window is kept inside the capture: the instant near its end is not at the middle.)
  await clickRow(page, openRow.track, open[0], 'left', at);
  await expect(details).toHaveAttribute('data-selected-start', open[0]);
  await expect(page.getByTestId('tl-host-details')).toContainText(`Started on thread ${tid(open[2])}; never ended`);
});

test('library API rows: a thread\'s ACBLAS, DeepGemm, MoE and PCCL ranges on their own rows, off its HGTX row', async ({ page }) => {
  await openTimeline(page);
  const rows = await timelineRows(page);
  let checked = 0;
  for (const [library, prefix] of [['ACBLAS', 'ACBLAS:'], ['DeepGemm', 'DeepGemm:'], ['MoE', 'MoE:'], ['PCCL', 'AllReduce, p:']] as const) {
    const libRows = rows.filter((r) => new RegExp(`^Thread \\d+.* ${library} — `).test(r.label));
    expect(libRows.length, `${library} rows`).toBeGreaterThan(0);
    for (const row of libRows) {
      const tid = Number(/^Thread (\d+)/.exec(row.label)![1]);
      const pid = Number(/^Process (\d+)/.exec(row.group)![1]);
      const ranges = libraryRanges(tid, prefix);
      expect(ranges.length).toBeGreaterThan(0);
      expect(row.label).toMatch(new RegExp(` ${library} — ${shown(unionIn(spans(ranges), ...ALL), unionIn(workOf(pid), ...ALL)).replace('.', '\\.')}$`));
      // Right after the thread's HGTX row (and the libraries before it).
      const at = rows.indexOf(row);
      expect(rows.slice(0, at).reverse().find((r) => !/ (ACBLAS|DeepGemm|MoE|PCCL) — /.test(r.label))!.label).toMatch(
        new RegExp(`^Thread ${tid}\\b.* HGTX — `),
      );
      checked++;
    }
  }
  expect(checked).toBeGreaterThanOrEqual(4);

  // The first ACBLAS row's Events view: exactly that thread's ACBLAS ranges.
  const acblas = rows.find((r) => / ACBLAS — /.test(r.label))!;
  const tid = Number(/^Thread (\d+)/.exec(acblas.label)![1]);
  await openEventsOf(page, timelineRowItems(page, new RegExp(`^Thread ${tid}\\b.* ACBLAS — `)).first());
  const table = page.getByTestId('events-view').getByTestId('result-table');
  await expect(table).toHaveAttribute('data-rows', String(libraryRanges(tid, 'ACBLAS:').length));
  const names = await table.locator('.rows .tr > :nth-child(2)').allTextContents();
  expect(names.length).toBeGreaterThan(0);
  for (const n of names) expect(n.startsWith('ACBLAS:')).toBe(true);
  // Its HGTX row lists the thread's other push/pop ranges only.
  await openEventsOf(page, timelineRowItems(page, new RegExp(`^Thread ${tid}\\b.* HGTX — `)).first());
  const others = sql(`SELECT count(*) FROM HGTX_EVENTS h WHERE h.eventType = 59 AND h.end IS NOT NULL AND (h.globalTid & 16777215) = ${tid}
    AND ${NAME} NOT LIKE 'ACBLAS:%' AND ${NAME} NOT LIKE 'DeepGemm:%' AND ${NAME} NOT LIKE 'MoE:%' AND ${NAME} NOT LIKE 'AllReduce, p:%'`)[0][0];
  await expect(table).toHaveAttribute('data-rows', others);
});

test('memory allocation failures: marked on the process\'s row, tooltip with the call and return value, Go to the call, Show in table', async ({ page }) => {
  const pids = processes();
  const failures = pids.flatMap(failuresOf);
  expect(failures.length).toBeGreaterThan(0);
  await openTimeline(page);
  const rows = await timelineRows(page);
  for (const pid of pids) {
    const mine = failuresOf(pid);
    const row = rows.find((r) => groupOf(pid).test(r.group) && r.label.startsWith('Memory allocation failures'));
    if (mine.length === 0) {
      expect(row).toBeUndefined();
      continue;
    }
    const work = workOf(pid);
    expect(row!.label).toBe(`Memory allocation failures — ${shown(unionIn(spans(mine), ...ALL), unionIn(work, ...ALL))}`);
  }
  // Zoomed to the first failure: its tooltip, its details, the call itself.
  const f = failures[0];
  const [start, end] = [BigInt(f[0]), BigInt(f[1])];
  await openDemoTimelineAt(page, start - (end - start), end + (end - start));
  const pid = Number((BigInt(f[2]) >> 24n) & 0xffffffn);
  const row = (await timelineRows(page)).find((r) => groupOf(pid).test(r.group) && r.label.startsWith('Memory allocation failures'))!;
  const tip = await hoverRow(page, row.track, 'Memory allocation failed');
  expect(tip).toContain(`Memory allocation failed: ${f[3]} returned ${f[4]}`);
  await clickRow(page, row.track, f[0]);
  const details = page.getByTestId('tl-details');
  await expect(details).toHaveAttribute('data-selected-kind', 'allocFailure');
  await expect(details).toHaveAttribute('data-selected-start', f[0]);
  await expect(page.getByTestId('tl-host-details')).toContainText(`returned ${f[4]}`);
  await expect(page.getByTestId('tl-host-details')).toContainText(`Called on thread ${BigInt(f[2]) & 0xffffffn}`);
  // Go to the call: the same call, on its thread's HGGC API row, drawn red.
  await page.getByTestId('tl-go-to-call').click();
  await waitIdle(page);
  await expect(details).toHaveAttribute('data-selected-kind', 'apiError');
  await expect(details).toHaveAttribute('data-selected-start', f[0]);
  const callTrack = (await details.getAttribute('data-selected-track'))!;
  const callRow = (await timelineRows(page)).find((r) => r.track === callTrack)!;
  expect(callRow.label).toMatch(new RegExp(`^Thread ${BigInt(f[2]) & 0xffffffn}\\b.* HGGC API`));
  // Back on the failure's row: Show in table selects the call's row in hggc_api_trace.
  await clickRow(page, row.track, f[0], 'right');
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show in table' }).click();
  await expect(page.locator('[data-testid=result][data-rule="hggc_api_trace"]')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await waitIdle(page);
  const selected = page.locator('[data-testid=result-table] .rows .tr.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toContainText(f[3]);
});

test('Filter and Zoom in: the host rows\' shares are recomputed for the statistics range', async ({ page }) => {
  await openTimeline(page);
  const view = page.getByTestId('timeline-view');
  await dragSelect(page, 0.25, 0.6);
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  await expect(view).toHaveAttribute('data-shares', 'range');
  const zero = BigInt((await view.getAttribute('data-zero'))!);
  const [from, to] = (await view.getAttribute('data-filter-time'))!.split('/').map((v) => zero + BigInt(v));
  const rows = await timelineRows(page);
  for (const pid of processes()) {
    const work = workOf(pid);
    const busy = unionIn(work, from, to);
    const row = rows.find((r) => groupOf(pid).test(r.group) && r.label.startsWith('HGTX start/end'))!;
    const closed = spans(startEndOf(pid).filter((r) => r[1] !== ''));
    expect(row.label).toBe(`HGTX start/end — ${shown(overlap(closed, work, from, to), busy)}`);
    const acblas = rows.find((r) => groupOf(pid).test(r.group) && / ACBLAS — /.test(r.label))!;
    const tid = Number(/^Thread (\d+)/.exec(acblas.label)![1]);
    expect(acblas.label).toMatch(new RegExp(` ACBLAS — ${shown(unionIn(spans(libraryRanges(tid, 'ACBLAS:')), from, to), busy).replace('.', '\\.')}$`));
  }
});

test('in Chinese: the host rows\' tooltip and details', async ({ page }) => {
  const f = processes().flatMap(failuresOf)[0];
  const [start, end] = [BigInt(f[0]), BigInt(f[1])];
  await page.goto('about:blank');
  await page.goto(`./#v=1&view=timeline&report.0=demo-base.asysrep&base=0&window=0:${start - (end - start)}/${end + (end - start)}&lang=zh`);
  await waitIdle(page);
  await page.getByTestId('demo-base').first().click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  const pid = Number((BigInt(f[2]) >> 24n) & 0xffffffn);
  // The process's own rows in Chinese.
  const rows = await timelineRows(page);
  const row = rows.find((r) => groupOf(pid).test(r.group) && r.label.startsWith('内存分配失败 — '))!;
  expect(row).toBeDefined();
  expect(rows.filter((r) => groupOf(pid).test(r.group) && r.label.startsWith('HGTX 起止 range — '))).toHaveLength(1);
  expect(await hoverRow(page, row.track, '内存分配失败')).toContain(`内存分配失败：${f[3]} 返回 ${f[4]}`);
  await clickRow(page, row.track, f[0]);
  const host = page.getByTestId('tl-host-details');
  await expect(host).toContainText('内存分配失败');
  await expect(host).toContainText('大小：未记录');
  await expect(page.getByTestId('tl-go-to-call')).toHaveText('转到该调用');
});

const REAL = REAL_TRACE_AND_EXPORT;

for (const real of REAL) {
  test(`${real.name}: no start/end, library or allocation failure rows (it has none of these events), the rows as before`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(120_000);
    // What its import holds: no start/end range, no failed call, no library annotation.
    const db = importedCopy(real.file, 'asys-host-');
    expect(sql('SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 60', db)[0][0]).toBe('0');
    expect(sql('SELECT count(*) FROM HGGC_API WHERE returnValue != 0', db)[0][0]).toBe('0');
    const pushPop = Number(sql('SELECT count(*) FROM HGTX_EVENTS WHERE eventType = 59 AND end IS NOT NULL', db)[0][0]);
    expect(pushPop).toBeGreaterThan(0);
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await openTimeline(page);
    const rows = await timelineRows(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => /^HGTX start\/end|^Memory allocation failures| (ACBLAS|DeepGemm|MoE|PCCL) — /.test(r.label))).toEqual([]);
    // Every push/pop range is still on its thread's HGTX row: their Events views together list them all.
    const hgtx = rows.filter((r) => / HGTX — /.test(r.label));
    expect(hgtx.length).toBeGreaterThan(0);
    let listed = 0;
    for (const r of hgtx) {
      await openEventsOf(page, page.getByTestId('timeline-rows').locator(`li[data-track="${r.track}"]`));
      listed += Number(await page.getByTestId('events-view').getByTestId('result-table').getAttribute('data-rows'));
    }
    expect(listed).toBe(pushPop);
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });
}

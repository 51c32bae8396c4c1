// The manual's timeline rows (issue 23, asight-manual-digest.md "Timeline
// view"): a context's `[All Streams]` row, and every row's busy share
// recomputed for the statistics range after "Filter and Zoom in". Every
// share is checked against unions of intervals computed here from the demo
// report's own tables with the sqlite3 shell, not by the engine.
import { expect, test, type Page } from '@playwright/test';
import { dragSelect, openAppForEachTest, openTimeline, timelineRows, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';

openAppForEachTest({ demo: true });

const ALL = [-(2n ** 62n), 2n ** 62n] as const;

/**
 * A PPU's work from the tables: its kernels, memcpys and memsets, each with
 * its stream and whether it is a PCCL kernel (core/analysis/pccl_kernels:
 * the demo's are named pcclKernel...), which the timeline draws on the PPU's
 * "PCCL kernels" row, not on its stream's.
 */
function workOf(device: number): { stream: number; pccl: boolean; span: [bigint, bigint] }[] {
  const rows = sql(`
    SELECT k.streamId, s.value LIKE 'pcclKernel%', k.start, k.end FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE k.deviceId = ${device}
    UNION ALL SELECT streamId, 0, start, end FROM HGGC_MEMCPY WHERE deviceId = ${device}
    UNION ALL SELECT streamId, 0, start, end FROM HGGC_MEMSET WHERE deviceId = ${device}`);
  return rows.map(([stream, pccl, s, e]) => ({ stream: Number(stream), pccl: pccl === '1', span: [BigInt(s), BigInt(e)] }));
}

/** A share as the rows show it ("62.0%"). */
const shown = (part: bigint, whole: bigint) => `${((Number(part) / Number(whole)) * 100).toFixed(1)}%`;

/** The demo's PPUs as the timeline lists them: each group's rows in order. */
async function ppuRows(page: Page) {
  const rows = await timelineRows(page);
  return rows.filter((r) => r.group.startsWith('PPU '));
}

test('each PPU shows an [All Streams] row over its streams, its share the streams\' union over the PPU\'s work', async ({ page }) => {
  await openTimeline(page);
  const rows = await ppuRows(page);
  const devices = [...new Set(rows.map((r) => Number(/^PPU (\d+)/.exec(r.group)![1])))];
  expect(devices).toEqual([0, 1, 2, 3]);
  for (const d of devices) {
    const all = rows.filter((r) => r.group.startsWith(`PPU ${d} `));
    // A stream's graph rows (timeline_graph_rows.spec.ts) follow it, each right after its own stream
    // or that stream's other graph rows; the other rows are as before.
    for (const [i, r] of all.entries()) {
      if (r.graphOf === null) continue;
      const above = all[i - 1];
      expect(above.track === r.graphOf || above.graphOf === r.graphOf, `${r.label} under its stream`).toBe(true);
    }
    const mine = all.filter((r) => r.graphOf === null);
    const labels = mine.map((r) => r.label);
    // One context of two streams each (compacted away): [All Streams] first, then its streams.
    const streams = [...new Set(workOf(d).filter((w) => !w.pccl).map((w) => w.stream))].sort((a, b) => a - b);
    expect(streams).toHaveLength(2);
    const work = workOf(d);
    const ppuBusy = unionIn(work.map((w) => w.span), ...ALL);
    const allBusy = unionIn(work.filter((w) => !w.pccl).map((w) => w.span), ...ALL);
    expect(labels[0]).toBe(`[All Streams] — ${shown(allBusy, ppuBusy)}`);
    for (const [k, s] of streams.entries()) {
      const busy = unionIn(work.filter((w) => !w.pccl && w.stream === s).map((w) => w.span), ...ALL);
      expect(labels[1 + k]).toBe(`Stream ${s} — ${shown(busy, ppuBusy)}`);
    }
  }
  // Its lanes (16 px each): the most of its streams' events that run at once (touching ones do not).
  for (const d of devices) {
    const spans = workOf(d).filter((w) => !w.pccl).map((w) => w.span);
    const edges = spans.flatMap(([s, e]): [bigint, number][] => [[s, 1], [e, -1]]);
    edges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    let running = 0, most = 0;
    for (const [, step] of edges) most = Math.max(most, (running += step));
    const track = rows.find((r) => r.group.startsWith(`PPU ${d} `) && r.label.startsWith('[All Streams]'))!.track;
    const item = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
    expect(Number(await item.getAttribute('data-height'))).toBe(16 * Math.max(1, most));
  }
});

test('a click on an [All Streams] slice selects the event on its own stream', async ({ page }) => {
  await openTimeline(page);
  const rows = await ppuRows(page);
  const all = rows.find((r) => r.label.startsWith('[All Streams]'))!;
  const item = page.getByTestId('timeline-rows').locator(`li[data-track="${all.track}"]`);
  const top = Number(await item.getAttribute('data-top'));
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  // Across its first lane until a slice is hit.
  const details = page.getByTestId('tl-details');
  let hit = false;
  for (let f = 0.05; f < 1 && !hit; f += 0.05) {
    await canvas.click({ position: { x: 230 + (box.width - 230) * f, y: top + 8 } });
    hit = (await details.getAttribute('data-selected-track')) !== null;
  }
  expect(hit).toBe(true);
  await expect(details).toHaveAttribute('data-selected-track', /^\d+$/);
  const selected = await details.getAttribute('data-selected-track');
  const own = rows.find((r) => r.track === selected)!;
  // The event is its stream's (or the PPU's PCCL row is not among the sources).
  expect(own.label).toMatch(/^Stream \d+ /);
  expect(own.group).toBe(all.group);
  // Its start is an event of that stream in the tables.
  const start = BigInt((await details.getAttribute('data-selected-start'))!);
  const stream = Number(/^Stream (\d+)/.exec(own.label)![1]);
  const device = Number(/^PPU (\d+)/.exec(own.group)![1]);
  const starts = workOf(device).filter((w) => w.stream === stream && !w.pccl).map((w) => w.span[0]);
  expect(starts).toContain(start);
});

test('Filter and Zoom in: every row\'s share is recomputed for the statistics range', async ({ page }) => {
  await openTimeline(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-shares', 'capture');
  await dragSelect(page, 0.3, 0.45);
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  await expect(view).toHaveAttribute('data-shares', 'range');
  // The range from the capture start (the demo's is 0): [from, to).
  const filter = (await view.getAttribute('data-filter-time'))!;
  const zero = BigInt((await view.getAttribute('data-zero'))!);
  const [from, to] = filter.split('/').map((v) => zero + BigInt(v));
  const rows = await ppuRows(page);
  const busy: bigint[] = [];
  for (const d of [0, 1, 2, 3]) {
    const mine = rows.filter((r) => r.group.startsWith(`PPU ${d} `));
    const work = workOf(d);
    const ppuBusy = unionIn(work.map((w) => w.span), from, to);
    busy.push(ppuBusy);
    const allBusy = unionIn(work.filter((w) => !w.pccl).map((w) => w.span), from, to);
    expect(mine[0].label).toBe(`[All Streams] — ${shown(allBusy, ppuBusy)}`);
    const s = Number(/^Stream (\d+)/.exec(mine[1].label)![1]);
    const streamBusy = unionIn(work.filter((w) => !w.pccl && w.stream === s).map((w) => w.span), from, to);
    expect(mine[1].label).toBe(`Stream ${s} — ${shown(streamBusy, ppuBusy)}`);
  }
  // The PPUs' headings: each one's busy time in the range over all PPUs' together.
  const every = unionIn([0, 1, 2, 3].flatMap((d) => workOf(d).map((w) => w.span)), from, to);
  const groups = await page.getByTestId('tl-group').allTextContents();
  for (const d of [0, 1, 2, 3]) {
    expect(groups.find((g) => g.startsWith(`PPU ${d} `))).toMatch(new RegExp(` — ${shown(busy[d], every).replace('.', '\\.')}$`));
  }
  // Cleared: the whole capture's shares again.
  await page.getByTestId('tl-clear-range').click();
  await waitIdle(page);
  await expect(view).toHaveAttribute('data-shares', 'capture');
  const after = await ppuRows(page);
  const work0 = workOf(0);
  expect(after[0].label).toBe(
    `[All Streams] — ${shown(unionIn(work0.filter((w) => !w.pccl).map((w) => w.span), ...ALL), unionIn(work0.map((w) => w.span), ...ALL))}`,
  );
});

test('Show kernels grouped by base name: a row per base name under each stream in view, its share of the stream\'s busy time', async ({ page }) => {
  await openTimeline(page);
  await page.getByTestId('tl-kernel-grouping').selectOption('baseName');
  await waitIdle(page);
  // PPU 0's first stream: its rows by base name follow it, until its next stream.
  const work = workOf(0).filter((w) => !w.pccl);
  const stream = Math.min(...work.map((w) => w.stream));
  const nameRows = sql(`SELECT k.start, k.end, s.value FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName
    WHERE k.deviceId = 0 AND k.streamId = ${stream} AND s.value NOT LIKE 'pcclKernel%'`);
  const byName = new Map<string, [bigint, bigint][]>();
  for (const [s, e, name] of nameRows) byName.set(name, [...(byName.get(name) ?? []), [BigInt(s), BigInt(e)]]);
  const streamBusy = unionIn(work.filter((w) => w.stream === stream).map((w) => w.span), ...ALL);
  const expected = [...byName.entries()]
    .map(([name, spans]) => ({ name, busy: unionIn(spans, ...ALL) }))
    .sort((a, b) => (a.busy !== b.busy ? (a.busy > b.busy ? -1 : 1) : a.name < b.name ? -1 : 1))
    .map((g) => `${g.name} — ${shown(g.busy, streamBusy)}`);
  // Then the stream's graph rows (a row per graph exec launched on it: timeline_graph_rows.spec.ts), nothing else.
  const graphRows = (await ppuRows(page)).filter((r) => r.group.startsWith('PPU 0 ') && r.graphOf !== null);
  const streamTrack = (await ppuRows(page)).find((r) => r.group.startsWith('PPU 0 ') && r.label.startsWith(`Stream ${stream} `))!.track;
  const graphLabels = graphRows.filter((r) => r.graphOf === streamTrack).map((r) => r.label);
  for (const l of graphLabels) expect(l).toMatch(/^Graph (\d+ → exec \d+|exec \d+) — \d+\.\d%$/);
  await expect
    .poll(async () => {
      const rows = (await ppuRows(page)).filter((r) => r.group.startsWith('PPU 0 '));
      const at = rows.findIndex((r) => r.label.startsWith(`Stream ${stream} `));
      const next = rows.findIndex((r, i) => i > at && /^(Stream \d+|PCCL kernels) /.test(r.label));
      return rows.slice(at + 1, next).map((r) => r.label);
    })
    .toEqual([...expected, ...graphLabels]);
  expect(expected.length).toBeGreaterThan(1);
  // The toolbar's counts are the report's: the rows by base name draw the same kernels again.
  // (78 rows and the 12 host rows: timeline.spec.ts)
  await expect(page.getByTestId('timeline-window')).toContainText('90 tracks');
  // Off again: the rows go.
  await page.getByTestId('tl-kernel-grouping').selectOption('none');
  const labels = (await ppuRows(page)).map((r) => r.label);
  expect(labels.filter((l) => expected.includes(l))).toEqual([]);
});

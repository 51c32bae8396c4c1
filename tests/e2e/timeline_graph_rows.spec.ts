// The manual's graph rows (asight-manual-digest.md "per stream: ... graphs
// (graph -> graph exec)"; docs/timeline.md "Graph rows"): under each stream
// that ran graph work, a row per graph exec launched on it, a slice per
// launch. Checked against the demo report's own tables with the sqlite3
// shell (the launches, the hgGraphLaunch calls, the graphs the execs were
// instantiated from, the stream's busy time), not by the engine; and on a
// real Kineto trace and a real Nsight Systems export, which have none.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dragSelect, dropFile, importedCopy, openAppForEachTest, openDemoTimelineAt, openTimeline, REAL_TRACE_AND_EXPORT, timelineRows, waitIdle } from './helpers';
import { sql, unionIn } from './sql_oracle';
import { englishTexts } from './english_texts';

openAppForEachTest({ demo: true });

const LABELS = 230;
const ALL = [-(2n ** 62n), 2n ** 62n] as const;
const shown = (part: bigint, whole: bigint) => `${((Number(part) / Number(whole)) * 100).toFixed(1)}%`;

/** The activity tables' rows of one (device, stream), graph ones with their process, exec and correlation id. */
function streamActivities(device: number, stream: number, db?: string) {
  const rows = sql(
    `SELECT k.start, k.end, k.graphId, k.globalPid >> 24, k.correlationId, 'kernel' FROM HGGC_KERNEL k JOIN StringIds s ON s.id = k.shortName
       WHERE k.deviceId = ${device} AND k.streamId = ${stream} AND s.value NOT LIKE 'pcclKernel%'
     UNION ALL SELECT start, end, graphId, globalPid >> 24, correlationId, 'memcpy' FROM HGGC_MEMCPY WHERE deviceId = ${device} AND streamId = ${stream}
     UNION ALL SELECT start, end, graphId, globalPid >> 24, correlationId, 'memset' FROM HGGC_MEMSET WHERE deviceId = ${device} AND streamId = ${stream}`,
    db,
  );
  return rows.map(([s, e, graph, pid, corr, kind]) => ({ span: [BigInt(s), BigInt(e)] as [bigint, bigint], exec: graph === '' ? null : Number(graph), pid, corr, kind }));
}

/** The graph exec `exec` of process `pid` was instantiated from: its nodes' originals' graph (HGGC_GRAPH_NODE_EVENTS). */
function graphOfExec(pid: string, exec: number): number | null {
  const r = sql(`SELECT DISTINCT o.graphId FROM HGGC_GRAPH_NODE_EVENTS n JOIN HGGC_GRAPH_NODE_EVENTS o
    ON o.graphNodeId = n.originalGraphNodeId AND (o.globalTid >> 24) = (n.globalTid >> 24)
    WHERE n.graphId = ${exec} AND (n.globalTid >> 24) = ${pid} AND o.graphId <> n.graphId`);
  return r.length ? Number(r[0][0]) : null;
}

/** The hgGraphLaunch calls whose activities ran exec `exec` on (device, stream): by the activities' correlation ids. */
function launchCalls(device: number, stream: number, exec: number): { corr: string; start: string }[] {
  return sql(`SELECT a.correlationId, a.start FROM HGGC_API a JOIN StringIds s ON s.id = a.nameId
    WHERE s.value = 'hgGraphLaunch' AND EXISTS (
      SELECT 1 FROM (SELECT deviceId, streamId, graphId, correlationId, globalPid FROM HGGC_KERNEL
                     UNION ALL SELECT deviceId, streamId, graphId, correlationId, globalPid FROM HGGC_MEMCPY
                     UNION ALL SELECT deviceId, streamId, graphId, correlationId, globalPid FROM HGGC_MEMSET) w
      WHERE w.deviceId = ${device} AND w.streamId = ${stream} AND w.graphId = ${exec}
        AND w.correlationId = a.correlationId AND (w.globalPid >> 24) = (a.globalTid >> 24))
    ORDER BY a.start`).map(([corr, start]) => ({ corr, start }));
}

/**
 * Per graph exec on (device, stream), worked out from the tables: its row's
 * label, its launches (in start order) and their spans. With `range` (a
 * statistics range, absolute ns) the share is the stream's busy time inside
 * the launches' spans clipped to it, over the stream's inside it.
 */
function expectedGraphRows(device: number, stream: number, zh = false, range: readonly [bigint, bigint] = ALL) {
  const [from, to] = range;
  const acts = streamActivities(device, stream);
  const streamBusy = unionIn(acts.map((a) => a.span), from, to);
  const byExec = new Map<string, Map<string, { span: [bigint, bigint]; kinds: string[]; spans: [bigint, bigint][] }>>();
  for (const a of acts) {
    if (a.exec === null) continue;
    const key = `${a.exec}:${a.pid}`;
    const launches = byExec.get(key) ?? new Map();
    const l = launches.get(a.corr) ?? { span: a.span, kinds: [], spans: [] };
    l.span = [a.span[0] < l.span[0] ? a.span[0] : l.span[0], a.span[1] > l.span[1] ? a.span[1] : l.span[1]];
    l.kinds.push(a.kind);
    l.spans.push(a.span);
    launches.set(a.corr, l);
    byExec.set(key, launches);
  }
  return [...byExec.entries()]
    .sort(([a], [b]) => Number(a.split(':')[0]) - Number(b.split(':')[0]))
    .map(([key, launches]) => {
      const [exec, pid] = key.split(':');
      const graph = graphOfExec(pid, Number(exec));
      const name = zh
        ? graph === null ? `可执行图 ${exec}` : `图 ${graph} → 可执行图 ${exec}`
        : graph === null ? `Graph exec ${exec}` : `Graph ${graph} → exec ${exec}`;
      const list = [...launches.entries()].map(([corr, l]) => ({ corr, ...l })).sort((a, b) => (a.span[0] < b.span[0] ? -1 : 1));
      // The row's busy time: the stream's inside its launches' spans.
      const busy = list.reduce((n, l) => {
        const a = l.span[0] > from ? l.span[0] : from, b = l.span[1] < to ? l.span[1] : to;
        return a < b ? n + unionIn(acts.map((x) => x.span), a, b) : n;
      }, 0n);
      return { exec: Number(exec), name, busy, streamBusy, label: `${name} — ${shown(busy, streamBusy)}`, launches: list };
    });
}

/** Scrolls row `track` into view; its y on the pointer layer. */
async function scrollToRow(page: Page, track: string): Promise<number> {
  const top = Number(await page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`).getAttribute('data-top'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  return top;
}

test('the demo: a row per graph exec under each stream that launched one, a slice per hgGraphLaunch call, its share of the stream', async ({ page }) => {
  await openTimeline(page);
  const rows = await timelineRows(page);
  const streams = sql(`SELECT DISTINCT deviceId, streamId FROM (SELECT deviceId, streamId, graphId FROM HGGC_KERNEL
    UNION ALL SELECT deviceId, streamId, graphId FROM HGGC_MEMCPY UNION ALL SELECT deviceId, streamId, graphId FROM HGGC_MEMSET)
    WHERE graphId IS NOT NULL ORDER BY 1, 2`).map(([d, s]) => [Number(d), Number(s)]);
  // PPU 0 stream 7 among them (the brief's example), and every graph row's stream among them.
  expect(streams).toContainEqual([0, 7]);
  expect(rows.filter((r) => r.graphOf !== null).length).toBe(streams.reduce((n, [d, s]) => n + expectedGraphRows(d, s).length, 0));
  for (const [d, s] of streams) {
    const at = rows.findIndex((r) => r.group.startsWith(`PPU ${d} `) && r.label.startsWith(`Stream ${s} `));
    expect(at, `PPU ${d} stream ${s}`).toBeGreaterThanOrEqual(0);
    const expected = expectedGraphRows(d, s);
    expect(expected.length).toBeGreaterThan(0);
    // Right under the stream (no kernel grouping shown), then the next row is no graph row of it.
    const under = rows.slice(at + 1, at + 1 + expected.length);
    expect(under.map((r) => r.label)).toEqual(expected.map((e) => e.label));
    for (const r of under) expect(r.graphOf).toBe(rows[at].track);
    expect(rows[at + 1 + expected.length]?.graphOf ?? null).toBeNull();
    // A slice per launch: as many as the hgGraphLaunch calls of that exec's activities on this stream.
    for (const [k, e] of expected.entries()) {
      const calls = launchCalls(d, s, e.exec);
      expect(calls.length).toBeGreaterThan(0);
      const item = page.getByTestId('timeline-rows').locator(`li[data-track="${under[k].track}"]`);
      await expect(item).toHaveAttribute('data-events', String(calls.length));
      expect(e.launches.map((l) => l.corr)).toEqual(calls.map((c) => c.corr));
    }
  }
  // Not tracks of their own: the toolbar's count is as before (78 rows and the 12 host rows: timeline.spec.ts).
  await expect(page.getByTestId('timeline-window')).toContainText('90 tracks');
});

test('the demo: Filter and Zoom in recomputes each graph row\'s share for the statistics range', async ({ page }) => {
  await openTimeline(page);
  await dragSelect(page, 0.3, 0.45);
  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-shares', 'range');
  const zero = BigInt((await view.getAttribute('data-zero'))!);
  const [from, to] = (await view.getAttribute('data-filter-time'))!.split('/').map((v) => zero + BigInt(v));
  const rows = await timelineRows(page);
  let checked = 0,
    changed = 0;
  for (const stream of rows.filter((r) => rows.some((g) => g.graphOf === r.track))) {
    const [, d] = /^PPU (\d+) /.exec(stream.group)!;
    const [, s] = /^Stream (\d+) /.exec(stream.label)!;
    const expected = expectedGraphRows(Number(d), Number(s), false, [from, to]);
    if (expected[0].streamBusy === 0n) continue; // a stream idle in the range: no shares
    expect(rows.filter((r) => r.graphOf === stream.track).map((r) => r.label)).toEqual(expected.map((e) => e.label));
    checked += expected.filter((e) => e.busy > 0n && e.busy < e.streamBusy).length;
    const whole = expectedGraphRows(Number(d), Number(s));
    changed += expected.filter((e, k) => e.label !== whole[k].label).length;
  }
  expect(checked, 'graph rows partly busy inside the range').toBeGreaterThan(0);
  expect(changed, 'graph rows whose share differs from the whole capture\'s').toBeGreaterThan(0);
});

test('the demo: a launch\'s tooltip and details, Go to Host API selects its hgGraphLaunch call, the label in Chinese', async ({ page }) => {
  test.setTimeout(120_000);
  const [row] = expectedGraphRows(0, 7);
  const launch = row.launches[1];
  const calls = launchCalls(0, 7, row.exec);
  // The window around the second launch: its slice in the middle of the plot.
  const pad = (launch.span[1] - launch.span[0]) / 2n;
  await openDemoTimelineAt(page, launch.span[0] - pad, launch.span[1] + pad);
  const rows = await timelineRows(page);
  const stream = rows.find((r) => r.group.startsWith('PPU 0 ') && r.label.startsWith('Stream 7 '))!;
  const graphRow = rows.find((r) => r.graphOf === stream.track)!;
  expect(graphRow.label).toBe(row.label);
  const top = await scrollToRow(page, graphRow.track);
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const x = LABELS + (box.width - LABELS) / 2;
  await page.mouse.move(box.x + x, box.y + top + 8);
  const tip = page.getByTestId('timeline-tip');
  await expect(tip).toBeVisible();
  const kernels = launch.kinds.filter((k) => k === 'kernel').length;
  const memcpys = launch.kinds.filter((k) => k === 'memcpy').length;
  const memsets = launch.kinds.filter((k) => k === 'memset').length;
  await expect(tip).toContainText(`${row.name}: launch 2 of ${row.launches.length} on this stream`);
  await expect(tip).toContainText(`${launch.kinds.length} nodes run: ${kernels} kernels, ${memcpys} memcpys, ${memsets} memsets`);
  await expect(tip).toContainText(`launched by the call of correlation id ${launch.corr}`);
  // A click selects the launch; the details say the same and link its call.
  await canvas.click({ position: { x, y: top + 8 } });
  const details = page.getByTestId('tl-details');
  await expect(details).toHaveAttribute('data-selected-kind', 'graphLaunch');
  await expect(details).toHaveAttribute('data-selected-track', graphRow.track);
  await expect(details).toHaveAttribute('data-selected-start', String(launch.span[0]));
  const lines = page.getByTestId('tl-graph-details');
  await expect(lines).toContainText(`busy `);
  await expect(page.getByTestId('tl-related')).toHaveAttribute('data-count', '1');
  // Its right-click: Go to Host API (the menu) is enabled; the details' button selects the hgGraphLaunch call.
  await canvas.click({ position: { x, y: top + 8 }, button: 'right' });
  const menu = page.getByTestId('context-menu');
  await expect(menu.getByRole('menuitem', { name: 'Go to Host API' })).toBeEnabled();
  await expect(menu.getByRole('menuitem', { name: 'Show in table' })).toBeDisabled();
  await page.keyboard.press('Escape');
  // Chinese: the row's label, the tooltip's lines, the details.
  await page.getByTestId('lang-switch').selectOption('zh');
  await waitIdle(page);
  const [zh] = expectedGraphRows(0, 7, true);
  expect((await timelineRows(page)).find((r) => r.track === graphRow.track)!.label).toBe(zh.label);
  await scrollToRow(page, graphRow.track);
  await expect(lines).toContainText(`${zh.name}：此流上第 2 次启动`);
  await expect(details.locator('strong').first()).toHaveText(zh.name);
  // Nothing selected (a click beside the slice), the tooltip over it: no English of the interface's own.
  // (A selected launch lists its call's name and thread, the report's words.)
  await canvas.click({ position: { x: LABELS + 4, y: top + 8 } });
  await expect(details).not.toHaveAttribute('data-selected-kind', 'graphLaunch');
  await page.mouse.move(box.x + x, box.y + top + 8);
  await expect(tip).toContainText(`${zh.name}：此流上第 2 次启动（共 ${row.launches.length} 次）`);
  await expect(tip).toContainText(`由 correlation id 为 ${launch.corr} 的调用启动`);
  expect(await englishTexts(page)).toEqual([]);
  await canvas.click({ position: { x, y: top + 8 } });
  await expect(details).toHaveAttribute('data-selected-kind', 'graphLaunch');
  // The details' Go to Host API selects the hgGraphLaunch call.
  await page.getByTestId('tl-graph-go-call').click();
  await waitIdle(page);
  await expect(details).toHaveAttribute('data-selected-kind', 'api');
  await expect(details).toHaveAttribute('data-selected-start', calls[1].start);
});

const REAL = REAL_TRACE_AND_EXPORT;

for (const real of REAL) {
  test(`${real.name}: no graph work, no graph rows, the timeline as before`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(150_000);
    const db = importedCopy(real.file, 'asys-graph-rows-');
    // The import has no graph activity (graphId NULL everywhere, or no such column's values).
    const graphWork = sql(
      `SELECT (SELECT count(graphId) FROM HGGC_KERNEL) + (SELECT count(graphId) FROM HGGC_MEMCPY) + (SELECT count(graphId) FROM HGGC_MEMSET)`,
      db,
    );
    expect(graphWork[0][0]).toBe('0');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await expect(page.getByTestId('summary-file')).toHaveText(path.basename(real.file));
    await openTimeline(page);
    const rows = await timelineRows(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.graphOf !== null)).toEqual([]);
    expect(rows.filter((r) => /^Graph /.test(r.label))).toEqual([]);
    // Nothing noted against them.
    expect((await page.getByTestId('timeline-note').allTextContents()).filter((n) => /graph/i.test(n))).toEqual([]);
    // A click on the first stream's middle still works as before (a slice or nothing, no error).
    const stream = rows.find((r) => /^Stream \d+/.test(r.label));
    if (stream) {
      const top = await scrollToRow(page, stream.track);
      const canvas = page.getByTestId('timeline-canvas');
      const box = (await canvas.boundingBox())!;
      await canvas.click({ position: { x: LABELS + (box.width - LABELS) / 2, y: top + 8 } });
      await waitIdle(page);
    }
    await expect(page.getByTestId('error-banner')).toHaveCount(0);
  });
}

// The Events view (issue 23) on real files: a Kineto trace (epoch ns past
// 2^53) and an Nsight Systems export, imported by the viewer as the CLI
// imports them. The expected rows come from SQL over the CLI's import of the
// same file (tests/events_sql.mjs), not from the engine: the busiest
// stream's kernels, memcpys and memsets and the busiest thread's HGGC API
// calls, in time order, their Start from the capture start in the table and
// absolute in the CSV export; a row's "Show on timeline" selects and
// spotlights that very event.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFile, eventsPane, eventsPaneColumn, eventsPaneHeaders, eventsPaneReady, eventsTable, importedCopy, openAppForEachTest, openEventsOf, openTimeline, parseCsv, parseShown, REAL_TRACE_AND_EXPORT, timelineRows, waitIdle } from './helpers';
import { apiRows, sqlRows, STREAM_HEADERS, streamPlace, streamRows } from '../events_sql.mjs';

openAppForEachTest();

const REAL = REAL_TRACE_AND_EXPORT;

/** The pane's row as the engine names it (its data attributes). */
async function paneTrack(page: Page) {
  const p = eventsPane(page);
  return { group: (await p.getAttribute('data-group'))!, label: (await p.getAttribute('data-label'))!, context: (await p.getAttribute('data-context')) ?? '' };
}

/** The pane's CSV export: its header and rows (the trailing empty field of each line dropped). */
async function paneCsv(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), eventsPane(page).getByTestId('export-csv').click()]);
  const [header, ...lines] = parseCsv(readFileSync(await download.path(), 'utf8')).map((r) => r.slice(0, -1));
  await waitIdle(page);
  return { name: download.suggestedFilename(), header, lines };
}

const asSet = (rs: string[][]) => rs.map((r) => r.join('|')).sort();

/** Row `row` of the pane shown on the timeline: the event selected there starts at `start` (absolute ns) on the pane's row. */
async function showRowOnTimeline(page: Page, row: number, start: string) {
  const track = (await eventsPane(page).getAttribute('data-track'))!;
  await eventsTable(page).locator(`.rows .tr[data-row="${row}"]`).click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show on timeline', exact: true }).click();
  await waitIdle(page);
  const details = page.getByTestId('tl-details');
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-spotlight', new RegExp(`^${track}:\\d+$`));
  await expect(details).toHaveAttribute('data-selected-track', track);
  await expect(details).toHaveAttribute('data-selected-start', start);
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-spotlit', '1');
}

for (const real of REAL) {
  test(`${real.name}: the busiest stream's and thread's Events views list what SQL over the imported report gives`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(120_000);
    // The CLI's import of the same file, read with sqlite3.
    const db = importedCopy(real.file, 'asys-events-');
    const zero = BigInt(sqlRows(db, "SELECT COALESCE((SELECT value FROM META_DATA WHERE name = 'captureStart'), 0)")[0][0]);
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await expect(page.getByTestId('summary-file')).toHaveText(path.basename(real.file));
    await openTimeline(page);
    const rows = await timelineRows(page);

    // The stream with the most events by SQL.
    const streams = rows
      .map((r) => {
        const device = /^PPU (\d+)/.exec(r.group);
        const stream = /^Stream (\d+)/.exec(r.label);
        const context = /^Context (\d+)/.exec(r.context);
        if (!device || !stream) return null;
        const place = { device: Number(device[1]), context: context ? Number(context[1]) : null, stream: Number(stream[1]) };
        return { track: r.track, place, rows: streamRows(db, place.device, place.context, place.stream) };
      })
      .filter((s) => s !== null)
      .sort((a, b) => b.rows.length - a.rows.length);
    expect(streams.length, 'stream rows on the timeline').toBeGreaterThan(0);
    const stream = streams[0];
    expect(stream.rows.length).toBeGreaterThan(10);
    await openEventsOf(page, page.getByTestId('timeline-rows').locator(`li[data-track="${stream.track}"]`));
    await expect(eventsPane(page)).toHaveAttribute('data-track', stream.track);
    expect(streamPlace(await paneTrack(page))).toEqual(stream.place);
    expect(await eventsPaneHeaders(page)).toEqual(['Row#', ...STREAM_HEADERS]);
    await expect(eventsTable(page)).toHaveAttribute('data-rows', String(stream.rows.length));
    // The first rows in view: Start from the capture start (an epoch-ns Kineto start is past 2^53: BigInt), Duration.
    const starts = (await eventsPaneColumn(page, 'Start (ns)')).map((s) => s.replace(/[\s\u202f]/g, ''));
    const durations = (await eventsPaneColumn(page, 'Duration (ns)')).map(parseShown);
    expect(starts.length).toBeGreaterThan(5);
    expect(starts).toEqual(stream.rows.slice(0, starts.length).map((r) => String(BigInt(r[1]) - zero)));
    expect(durations).toEqual(stream.rows.slice(0, durations.length).map((r) => Number(r[2])));
    // The absolute ns on hover.
    const at = (await eventsPaneHeaders(page)).indexOf('Start (ns)');
    await expect(eventsTable(page).locator(`.rows .tr[data-row="2"] > :nth-child(${at + 1})`)).toHaveAttribute('title', new RegExp(`\\b${stream.rows[2][1]}\\b`));
    // The CSV: every row in time order, absolute times, the query's cells.
    const csv = await paneCsv(page);
    expect(csv.header).toEqual(['Row#', ...STREAM_HEADERS]);
    expect(csv.lines.map((r) => `${r[2]}+${r[3]}`)).toEqual(stream.rows.map((r) => `${r[1]}+${r[2]}`));
    expect(asSet(csv.lines.map((r) => r.slice(1)))).toEqual(asSet(stream.rows));
    // Row 3's event on the timeline.
    await showRowOnTimeline(page, 3, stream.rows[3][1]);

    // The thread with the most HGGC API calls by SQL.
    const threads = rows
      .map((r) => {
        const pid = /^Process (\d+)/.exec(r.group);
        const tid = /^Thread (\d+)/.exec(r.label);
        if (!pid || !tid || !/HGGC API/.test(r.label)) return null;
        const gtid = (BigInt(pid[1]) << 24n) | BigInt(tid[1]);
        return { track: r.track, rows: apiRows(db, gtid) };
      })
      .filter((t) => t !== null)
      .sort((a, b) => b.rows.length - a.rows.length);
    expect(threads.length, 'HGGC API rows on the timeline').toBeGreaterThan(0);
    const thread = threads[0];
    expect(thread.rows.length).toBeGreaterThan(10);
    // Its label's right-click picks nothing: the window is around the stream's event, and a call
    // starting left of it reaches under the labels (in the Nsight export it did, and was picked).
    await openEventsOf(page, page.getByTestId('timeline-rows').locator(`li[data-track="${thread.track}"]`));
    await expect(eventsPane(page)).toHaveAttribute('data-track', thread.track);
    await expect(page.getByTestId('tl-details')).toHaveAttribute('data-selected-track', stream.track);
    await expect(page.getByTestId('tl-details')).toHaveAttribute('data-selected-start', stream.rows[3][1]);
    await eventsPaneReady(page);
    expect(await eventsPaneHeaders(page)).toEqual(['Row#', 'Name', 'Start (ns)', 'Duration (ns)', 'CorrId', 'Return Value']);
    await expect(eventsTable(page)).toHaveAttribute('data-rows', String(thread.rows.length));
    const apiCsv = await paneCsv(page);
    expect(apiCsv.lines.map((r) => `${r[2]}+${r[3]}`)).toEqual(thread.rows.map((r) => `${r[1]}+${r[2]}`));
    expect(asSet(apiCsv.lines.map((r) => r.slice(1)))).toEqual(asSet(thread.rows));
    await showRowOnTimeline(page, 5, thread.rows[5][1]);
  });
}

// One time zero (issue 23): the timeline, its selection readout, the
// statistics range and the tables' time columns all count from the report's
// capture start, with the absolute ns on hover; the CSV export keeps the
// CLI's absolute ns. On the demo (capture start 0) and on Kineto traces
// (their capture start is their first event, in epoch ns past 2^53 for the
// real one): the expected values come from the CLI's CSV and the imported
// report's META_DATA (read with sqlite3), not from the viewer.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  ASYS,
  asysOut,
  DEMO_BASE,
  dragSelect,
  dropFile,
  exportedCsv,
  headers,
  openAppForEachTest,
  openDemo,
  openTimeline,
  parseCsv,
  REAL_DATA,
  ROOT,
  selectRule,
  tableRows,
  waitIdle,
} from './helpers';

openAppForEachTest();

const ALEXNET = path.join(REAL_DATA, 'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz');
// Always present: a one-GPU Kineto trace, two kernels (its events' ts in µs from 980).
const MINIMAL = path.join(ROOT, 'tests/fuzz/seeds/kineto_import/minimal.json');

/** A report's META_DATA value, from the CLI's import of `input` (or the report itself), read by sqlite3 as text. */
function metaOf(input: string, name: string): string {
  let report = input;
  if (!input.endsWith('.asysrep')) {
    report = path.join(mkdtempSync(path.join(os.tmpdir(), 'asys-zero-')), 'imported.asysrep');
    execFileSync(ASYS, ['import', input, '-o', report]);
  }
  return execFileSync('sqlite3', [report, `SELECT value FROM META_DATA WHERE name = '${name}'`], { encoding: 'utf8' }).trim();
}

/** ns since the zero as the viewer's formatDurationNs writes it, worked out here on its own. */
function expectedText(ns: bigint): string {
  const n = Number(ns);
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)} ms`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)} µs`;
  return `${n} ns`;
}

/** Digits grouped with thin spaces, as the tables show an integer. */
const grouped = (v: bigint) => String(v).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

/** The absolute ns a hover title names ("1694128201424386000 ns on the report's clock ..."). */
const absOf = (title: string | null) => BigInt(/^(-?\d+) ns/.exec(title ?? '')![1]);

/**
 * Drags a selection on the timeline, filters to it, and checks that the
 * timeline's readout and the statistics range read the same times since the
 * zero, each the hand-computed (absolute - capture start), with the same
 * absolute ns on hover; and that the range sent is --filter-time from the zero.
 */
async function selectionMatchesRange(page: Page, captureStart: bigint) {
  await openTimeline(page);
  const view = page.getByTestId('timeline-view');
  await expect(view).toHaveAttribute('data-zero', String(captureStart));
  await dragSelect(page, 0.3, 0.6);
  const readout = page.getByTestId('tl-selection');
  const text = (await readout.textContent())!;
  const m = /^Selected \+(.+) – \+(.+) \((.+)\)$/.exec(text);
  expect(m, text).not.toBeNull();
  const [from, to] = /^(-?\d+) – (-?\d+) ns/.exec((await readout.getAttribute('title'))!)!.slice(1).map(BigInt);
  expect(m![1]).toBe(expectedText(from - captureStart));
  expect(m![2]).toBe(expectedText(to - captureStart));
  expect(m![3]).toBe(expectedText(to - from));

  await page.getByTestId('tl-filter-zoom').click();
  await waitIdle(page);
  await expect(view).toHaveAttribute('data-filter-time', `${from - captureStart}/${to - captureStart}`);
  await page.getByTestId('view-stats').click();
  await waitIdle(page);
  const range = page.getByTestId('time-window');
  await expect(range).toHaveText(`${m![1]} – ${m![2]}`);
  const times = range.locator('.time-text');
  expect(absOf(await times.nth(0).getAttribute('title'))).toBe(from);
  expect(absOf(await times.nth(1).getAttribute('title'))).toBe(to);
}

/**
 * The trace's Start column: each visible cell shows (CLI Start - capture start)
 * grouped, and its hover the CLI's absolute Start; the CSV export is the CLI's bytes.
 */
async function startCellsFromZero(page: Page, rule: string, input: string, captureStart: bigint) {
  expect(await selectRule(page, rule)).toBe('ready');
  const cliText = asysOut(['stats', '-r', rule, input]);
  const cli = parseCsv(cliText);
  const startCol = cli[0].indexOf('Start (ns)');
  expect(startCol, JSON.stringify(cli[0])).toBeGreaterThanOrEqual(0);
  const hs = await headers(page);
  const shownCol = hs.indexOf('Start (ns)');
  expect(shownCol, JSON.stringify(hs)).toBeGreaterThanOrEqual(0);
  const rows = tableRows(page);
  const n = Math.min(await rows.count(), 5);
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    const row = rows.nth(i);
    const at = Number(await row.getAttribute('data-row'));
    const abs = BigInt(cli[at + 1][startCol]);
    const cell = row.locator(`> :nth-child(${shownCol + 1})`);
    await expect(cell).toHaveText(grouped(abs - captureStart));
    expect(absOf(await cell.getAttribute('title'))).toBe(abs);
  }
  const { lines } = await exportedCsv(page);
  expect(lines.join('\n') + '\n').toBe(cliText);
}

test('the demo: the selection readout and the statistics range read the same times since the capture start', async ({ page }) => {
  const captureStart = BigInt(metaOf(DEMO_BASE, 'captureStart'));
  expect(captureStart).toBe(0n);
  await openDemo(page);
  await selectionMatchesRange(page, captureStart);
});

test('the demo: a trace\'s Start cells from the zero, the absolute ns on hover, the CSV export the CLI\'s bytes', async ({ page }) => {
  await openDemo(page);
  await startCellsFromZero(page, 'hggc_api_trace', DEMO_BASE, BigInt(metaOf(DEMO_BASE, 'captureStart')));
});

test('the timeline\'s axis counts from the capture start; hovering it gives the time at the pointer, absolute too', async ({ page }) => {
  // The demo's capture start is 0 and its first event (the timeline's left edge, shown whole) is its first
  // PPU metric sample at 156194312 ns (sqlite3: min(start) over the tables the timeline draws).
  const tables = ['HGGC_API', 'HGGC_KERNEL', 'HGGC_MEMCPY', 'HGGC_MEMSET', 'HGTX_EVENTS', 'OSRT_API', 'PPU_MEMORY_USAGE_EVENTS', 'PPU_METRICS', 'PCCL_STAGE_EVENTS'];
  const sql = `SELECT min(s) FROM (${tables.map((t) => `SELECT min(start) s FROM ${t}`).join(' UNION ALL ')})`;
  const first = BigInt(execFileSync('sqlite3', [DEMO_BASE, sql], { encoding: 'utf8' }).trim());
  expect(first).toBe(156_194_312n);
  await openDemo(page);
  await openTimeline(page);
  await expect(page.getByTestId('timeline-view')).toHaveAttribute('data-origin', String(first));
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  // The axis band (24 px tall), 1 px into the plot: the window's start, the first event.
  await page.mouse.move(box.x + 231, box.y + 10);
  const tip = page.getByTestId('timeline-tip');
  await expect(tip).toContainText('after the capture start');
  const [since, abs] = /^(\S+ \S+) after the capture start\n(\d+) ns/.exec((await tip.textContent())!)!.slice(1);
  // Within a few pixels of the first event: at most 3 of the plot's (width - 230 px) over the window.
  const w = page.getByTestId('timeline');
  const nsPerPx = (Number(await w.getAttribute('data-to')) - Number(await w.getAttribute('data-from'))) / (box.width - 230);
  expect(Number(BigInt(abs) - first)).toBeGreaterThanOrEqual(0);
  expect(Number(BigInt(abs) - first)).toBeLessThan(3 * nsPerPx);
  // Since the zero (0), not since the first event: about "+156.2 ms" (a pixel is about 0.9 ms), never "+0 ns".
  expect(since).toBe(`+${expectedText(BigInt(abs))}`);
  expect(since).toMatch(/^\+15\d\.\d ms$/);
});

test('a Kineto trace: the same span reads the same on the timeline and in the statistics range', async ({ page }) => {
  const captureStart = BigInt(metaOf(MINIMAL, 'captureStart'));
  await dropFile(page, 'minimal.json', readFileSync(MINIMAL));
  await waitIdle(page);
  await selectionMatchesRange(page, captureStart);
});

test('a real Kineto trace in epoch ns: Start cells from the zero, exact absolute ns on hover, CSV the CLI\'s; the range as the timeline reads it', async ({
  page,
}) => {
  test.skip(!existsSync(ALEXNET), `real data file missing: ${ALEXNET}`);
  const captureStart = BigInt(metaOf(ALEXNET, 'captureStart'));
  expect(captureStart).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
  await dropFile(page, path.basename(ALEXNET), readFileSync(ALEXNET), 'application/gzip');
  await waitIdle(page);
  await startCellsFromZero(page, 'hggc_ppu_trace', ALEXNET, captureStart);
  await selectionMatchesRange(page, captureStart);
});

test('typed ranges count from each report\'s own zero; the compare view shows each from its own', async ({ page }) => {
  const kinetoZero = BigInt(metaOf(MINIMAL, 'captureStart')); // 980000
  const typeRange = async (from: string, to: string) => {
    await page.getByTestId('time-from').fill(from);
    await page.getByTestId('time-to').fill(to);
    await page.getByTestId('time-apply').click();
    await waitIdle(page);
  };
  await openDemo(page);
  await typeRange('100ms', '200ms');
  await expect(page.getByTestId('time-window')).toHaveText('100.0 ms – 200.0 ms');
  await dropFile(page, 'minimal.json', readFileSync(MINIMAL));
  await waitIdle(page);
  await typeRange('10us', '50us');
  await expect(page.getByTestId('time-window')).toHaveText('10.0 µs – 50.0 µs');
  // The Kineto trace's range on its clock: its zero + 10 000 and + 50 000 ns.
  const times = page.getByTestId('time-window').locator('.time-text');
  expect(absOf(await times.nth(0).getAttribute('title'))).toBe(kinetoZero + 10_000n);
  expect(absOf(await times.nth(1).getAttribute('title'))).toBe(kinetoZero + 50_000n);

  await page.getByTestId('view-compare').click();
  await waitIdle(page);
  // Base: the active report (the Kineto trace); target: the demo (zero 0).
  const base = page.getByTestId('range-base');
  const target = page.getByTestId('range-target');
  await expect(base).toHaveText('10.0 µs – 50.0 µs');
  await expect(target).toHaveText('100.0 ms – 200.0 ms');
  expect(await base.getAttribute('title')).toMatch(new RegExp(`^${kinetoZero + 10_000n} – ${kinetoZero + 50_000n} ns`));
  expect(await target.getAttribute('title')).toMatch(/^100000000 – 200000000 ns/);
});

test('a real Nsight Systems export: its zero is the session start, before its first event; Start cells and the range count from it', async ({
  page,
}) => {
  const nsys = path.join(REAL_DATA, 'nsys-sqlite/fuser/report1.sqlite');
  test.skip(!existsSync(nsys), `real data file missing: ${nsys}`);
  // 566135859 ns on the export's clock; its first HGGC API call comes more than a second later.
  const captureStart = BigInt(metaOf(nsys, 'captureStart'));
  expect(captureStart).toBe(566_135_859n);
  await dropFile(page, 'report1.sqlite', readFileSync(nsys));
  await waitIdle(page);
  await startCellsFromZero(page, 'hggc_api_trace', nsys, captureStart);
  await selectionMatchesRange(page, captureStart);
});

test('a paged result\'s time cells count from the zero too, with their absolute ns on hover', async ({ page }) => {
  // ?pagedRows=0: every result is kept in the engine and its rows come a page at a time.
  await page.goto('./?pagedRows=0');
  await waitIdle(page);
  await dropFile(page, 'minimal.json', readFileSync(MINIMAL));
  await waitIdle(page);
  const zero = BigInt(metaOf(MINIMAL, 'captureStart'));
  await startCellsFromZero(page, 'hggc_ppu_trace', MINIMAL, zero);
  // The engine searches a paged result: a Start typed as shown (since the zero) finds its rows, the stored ns do not.
  const cli = parseCsv(asysOut(['stats', '-r', 'hggc_ppu_trace', MINIMAL]));
  const start = cli[0].indexOf('Start (ns)');
  const shownRows = cli.slice(1).map((r) => r.map((c, i) => (i === start ? String(BigInt(c) - zero) : c)).slice(1));
  const q = shownRows[0][start - 1];
  const want = shownRows.filter((r) => r.some((c) => c.toLowerCase().includes(q))).length;
  expect(want).toBeGreaterThan(0);
  await page.getByTestId('table-search-mode').selectOption('filter');
  await page.getByTestId('table-search-input').fill(q);
  await waitIdle(page);
  await expect(page.getByTestId('row-count')).toHaveText(`${want} of ${shownRows.length} rows`);
  await page.getByTestId('table-search-input').fill(cli[1][start]);
  await waitIdle(page);
  await expect(page.getByTestId('row-count')).toHaveText(`0 of ${shownRows.length} rows`);
});

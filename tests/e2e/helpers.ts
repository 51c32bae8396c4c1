// Helpers for the viewer's end-to-end tests: the app's idle signal, rule
// selection, table reading, synthetic file drops, and a network guard.
import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The demo reports scripts/build.sh generates (E2E_DEMO_DIR points elsewhere).
const DEMO_DIR = process.env.E2E_DEMO_DIR ?? path.join(ROOT, 'public/demo');
export const DEMO_BASE = path.join(DEMO_DIR, 'demo-base.asysrep');
export const DEMO_SLOW = path.join(DEMO_DIR, 'demo-slow.asysrep');

/** The native CLI the viewer's outputs are checked against. */
export const ASYS = path.join(ROOT, 'build/native/asys');

/** What `asys ARGS...` prints on stdout (it must succeed). */
export function asysOut(args: string[]): string {
  return execFileSync(ASYS, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
}

// Real third-party profiles (see its MANIFEST.md); absent on some machines
// (E2E_REAL_DATA points elsewhere).
export const REAL_DATA = process.env.E2E_REAL_DATA ?? path.join(ROOT, '../shared/data/real');

/** The real Kineto trace and Nsight Systems export the real-data specs open (skipped where REAL_DATA lacks them). */
export const REAL_TRACE_AND_EXPORT = [
  {
    name: 'a real Kineto trace',
    file: path.join(REAL_DATA, 'kineto/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz'),
    type: 'application/gzip',
  },
  { name: 'a real Nsight Systems export', file: path.join(REAL_DATA, 'nsys-sqlite/fuser/report1.sqlite'), type: '' },
];

/** The CLI's import of `file` into a fresh temporary folder (`prefix`...): a report the oracle reads with sqlite3. */
export function importedCopy(file: string, prefix: string): string {
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), prefix)), 'imported.asysrep');
  execFileSync(ASYS, ['import', file, '-o', db]);
  return db;
}

export const FIVE_RULES = ['hggc_api_sum', 'hggc_ppu_kern_sum', 'hgtx_sum', 'osrt_sum', 'ppu_device_attribute'];

/** Records every request that leaves localhost. */
export function guardNetwork(page: Page): string[] {
  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol === 'blob:' || url.protocol === 'data:') return;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) foreign.push(req.url());
  });
  return foreign;
}

/**
 * Before each test of the spec calling it: the app opened (at `address`,
 * default ./) and idle, page errors logged; after each: no request left
 * localhost.
 */
export function openAppForEachTest(options: { demo?: boolean; address?: string } = {}): void {
  let foreign: string[] = [];
  test.beforeEach(async ({ page }) => {
    foreign = guardNetwork(page);
    page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
    await page.goto(options.address ?? './');
    await waitIdle(page);
    if (options.demo) await openDemo(page);
  });
  test.afterEach(() => {
    expect(foreign, 'requests that left localhost').toEqual([]);
  });
}

/** The app's explicit idle signal: no engine request, load or pending run. */
export async function waitIdle(page: Page): Promise<void> {
  await expect(page.locator('body')).toHaveAttribute('data-state', 'idle');
}

/**
 * Whether `check` holds within `ms`, asked every 50 ms: for a right-click that
 * picks a slice, whose details may land a frame after the page is idle (read
 * once, at once, a pick was sometimes missed under load and the next lane
 * tried instead).
 */
export async function holdsWithin(check: () => Promise<boolean>, ms = 1000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function openDemo(page: Page, name: 'base' | 'slow' = 'base'): Promise<void> {
  await page.getByTestId(`demo-${name}`).first().click();
  await expect(page.getByTestId('summary-file')).toHaveText(`demo-${name}.asysrep`);
  await waitIdle(page);
}

/** Waits until `rule`'s current run is done; returns its status (ready | error). */
export async function waitResult(page: Page, rule: string, timeout?: number): Promise<string> {
  const result = page.locator(`[data-testid=result][data-rule="${rule}"]`);
  await expect(result).toHaveAttribute('data-status', /^(ready|error)$/, { timeout });
  await waitIdle(page);
  return (await result.getAttribute('data-status'))!;
}

export async function selectRule(page: Page, rule: string): Promise<string> {
  await page.getByTestId(`rule-${rule}`).click();
  return waitResult(page, rule);
}

export function tableRows(page: Page) {
  return page.locator('[data-testid=result-table] .rows .tr');
}

export async function headers(page: Page): Promise<string[]> {
  return page.locator('[data-testid=result-table] .thead [role=columnheader]').allInnerTexts().then((h) =>
    h.map((s) => s.replace(/[▲▼]/g, '').replace(/\s+/g, ' ').trim()),
  );
}

/** The texts of the visible rows in the column whose header is `header`. */
export async function columnTexts(page: Page, header: string): Promise<string[]> {
  const hs = await headers(page);
  const i = hs.indexOf(header);
  expect(i, `column "${header}" in ${JSON.stringify(hs)}`).toBeGreaterThanOrEqual(0);
  return tableRows(page).locator(`> :nth-child(${i + 1})`).allTextContents();
}

/** Numbers as the table shows them ("1 234", "-") -> numbers (NaN for "-"). */
export function parseShown(s: string): number {
  return s.trim() === '-' ? NaN : Number(s.replace(/[\s\u202f]/g, ''));
}

/** Drops a file on the page the way a desktop drag does (DataTransfer with one File). */
export async function dropFile(page: Page, name: string, bytes: Buffer, type = ''): Promise<void> {
  await dropFiles(page, [{ name, bytes, type }]);
}

/** Drops several files at once (one DataTransfer holding all of them). */
export async function dropFiles(page: Page, files: { name: string; bytes: Buffer; type?: string }[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const { name, b64, type } of list) {
        const bin = atob(b64);
        const buf = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) buf[i] = bin.charCodeAt(i);
        dt.items.add(new File([buf], name, { type }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64'), type: f.type ?? '' })),
  );
  const target = page.locator('body');
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** The current rule's CSV through the Export CSV button (all rows, not only the visible ones). */
export async function exportedCsv(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const text = readFileSync(await download.path(), 'utf8');
  await waitIdle(page);
  return { name: download.suggestedFilename(), lines: text.trimEnd().split('\n') };
}

/** Splits CSV text into rows of fields (RFC 4180 quoting, as the CLI writes it). */
export { parseCsv } from '../csv.mjs';

/**
 * Drops a file from disk as a desktop drag does: the File is backed by the
 * file on disk (Playwright fills a hidden input with it), not by bytes in
 * the page, so a large report costs the page nothing until it is read.
 */
export async function dropDiskFile(page: Page, filePath: string): Promise<void> {
  await page.evaluate(() => {
    if (document.getElementById('e2e-disk-file')) return;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'e2e-disk-file';
    input.style.display = 'none';
    document.body.append(input);
  });
  await page.setInputFiles('#e2e-disk-file', filePath);
  await page.evaluate(() => {
    const file = (document.getElementById('e2e-disk-file') as HTMLInputElement).files![0];
    const dt = new DataTransfer();
    dt.items.add(file);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  });
}

/** Switches to the timeline view and waits for it to settle. */
export async function openTimeline(page: Page): Promise<void> {
  await page.getByTestId('view-timeline').click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
}

/** The timeline's window [from, to] in ns, as its data attributes say. */
export async function timelineWindow(page: Page): Promise<{ from: number; to: number }> {
  const t = page.getByTestId('timeline');
  return { from: Number(await t.getAttribute('data-from')), to: Number(await t.getAttribute('data-to')) };
}

/**
 * A wheel turn over the timeline, then the page settled on the window it
 * made. Playwright's mouse.wheel returns before the page has handled the
 * event, so an idle page read at once may not have moved yet (seen under
 * CI's load: the window still whole after a zoom).
 */
export async function wheelTimeline(page: Page, dx: number, dy: number): Promise<void> {
  const before = await timelineWindow(page);
  await page.mouse.wheel(dx, dy);
  await expect
    .poll(async () => {
      const w = await timelineWindow(page);
      return w.from !== before.from || w.to !== before.to;
    })
    .toBe(true);
  await waitIdle(page);
}

/** A permalink to the demo report's timeline opened afresh: the link names the report, so the demo is picked again. */
export async function openDemoTimelineLink(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
  await waitIdle(page);
  await page.getByTestId('demo-base').first().click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
}

/** The demo report's timeline opened by a permalink on the window [from, to] (absolute ns). */
export async function openDemoTimelineAt(page: Page, from: bigint, to: bigint): Promise<void> {
  await openDemoTimelineLink(page, `./#v=1&view=timeline&report.0=demo-base.asysrep&base=0&window=0:${from}/${to}`);
}

/** Drags a selection across [a, b] of the timeline plot's width (fractions), right of the 230 px labels (lib/timeline LABEL_WIDTH). */
export async function dragSelect(page: Page, a: number, b: number): Promise<void> {
  const labels = 230;
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  const plot = box.width - labels;
  await page.mouse.move(box.x + labels + plot * a, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + labels + plot * b, box.y + 100, { steps: 5 });
  await page.mouse.up();
}

/** The Events view's pane and its table. */
export const eventsPane = (page: Page) => page.getByTestId('events-view');
export const eventsTable = (page: Page) => eventsPane(page).getByTestId('result-table');

/** The timeline's rows whose label matches `label` (their list items, in order). */
export function timelineRowItems(page: Page, label: RegExp): Locator {
  return page
    .getByTestId('timeline-rows')
    .locator('li')
    .filter({ has: page.getByTestId('tl-track').filter({ hasText: label }) });
}

/** Scrolls a timeline row into view and right-clicks it on its label (the context menu opens). */
export async function rightClickTimelineRow(page: Page, item: Locator): Promise<void> {
  const top = Number(await item.getAttribute('data-top'));
  const height = Number(await item.getAttribute('data-height'));
  await page.locator('.timeline-scroll').evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
  await waitIdle(page);
  // The pointer layer is as tall as every row and scrolls with them: a row's data-top is its y on it.
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + 60, box.y + top + height / 2, { button: 'right' });
}

/** Waits until the Events view's pane shows its rows (the first page in). */
export async function eventsPaneReady(page: Page): Promise<void> {
  await expect(eventsPane(page)).toHaveAttribute('data-status', 'ready');
  await waitIdle(page);
  await expect(eventsTable(page).locator('.rows .tr').first()).not.toHaveAttribute('data-loading', '');
}

/** A timeline row's right-click "Show in Events View" (either language); waits for the pane's rows. */
export async function openEventsOf(page: Page, item: Locator): Promise<void> {
  await rightClickTimelineRow(page, item);
  await page.getByTestId('context-menu').getByRole('menuitem', { name: /^(Show in Events View|在事件视图中显示)$/ }).click();
  await eventsPaneReady(page);
}

/** The Events view's column headers, without the sort marks. */
export async function eventsPaneHeaders(page: Page): Promise<string[]> {
  const hs = await eventsTable(page).locator('.thead [role=columnheader]').allInnerTexts();
  return hs.map((s) => s.replace(/[▲▼]/g, '').replace(/\s+/g, ' ').trim());
}

/** The visible rows' texts in the Events view's column `header`. */
export async function eventsPaneColumn(page: Page, header: string): Promise<string[]> {
  const i = (await eventsPaneHeaders(page)).indexOf(header);
  expect(i, `column "${header}"`).toBeGreaterThanOrEqual(0);
  return eventsTable(page).locator(`.rows .tr > :nth-child(${i + 1})`).allTextContents();
}

/** The timeline's rows as its list names them: each row's group and context (of the rows above it) and label. */
export async function timelineRows(page: Page) {
  return page
    .getByTestId('timeline-rows')
    .locator('li')
    .evaluateAll((lis) => {
      let group = '';
      let context = '';
      return lis.map((li) => {
        const g = li.querySelector('[data-testid=tl-group]')?.textContent;
        if (g) {
          group = g;
          context = '';
        }
        const c = li.querySelector('[data-testid=tl-context]')?.textContent;
        if (c) context = c;
        return {
          track: li.getAttribute('data-track')!,
          group,
          context,
          label: li.querySelector('[data-testid=tl-track]')?.textContent ?? '',
          deviceRow: li.hasAttribute('data-device-row'),
          // A graph row (a graph exec's launches under a stream): its stream's track id, else null.
          graphOf: li.getAttribute('data-graph-of'),
        };
      });
    });
}

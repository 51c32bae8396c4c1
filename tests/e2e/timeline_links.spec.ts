// Trace rows and timeline events linked by identity (issue 23) on the demo,
// checked against the CLI's CSV rows: a trace row's "Show ... on timeline"
// selects and spotlights exactly its event (the details name its kind and
// start, the page names the spotlit track and event), its row scrolled into
// view; a kernel slice's "Show in table" selects the kernel's row in
// hggc_ppu_trace, whose cells are the CLI's row; the advice's "Open rows"
// selects its row; a paged trace's rows are selected from the keyboard.
import { expect, test, type Page } from '@playwright/test';
import { asysOut, DEMO_BASE, holdsWithin, openAppForEachTest, openDemoTimelineAt, parseCsv, parseShown, selectRule, waitIdle } from './helpers';

openAppForEachTest({ demo: true });

const LABELS = 230;
const AXIS = 24;

function cli(rule: string): { col: (name: string) => number; rows: string[][]; header: string[] } {
  const [header, ...rows] = parseCsv(asysOut(['stats', '-r', rule, '--format', 'csv', DEMO_BASE]));
  return { header, rows, col: (name) => header.indexOf(name) };
}

/** The timeline's row of the selected event is in the scroll box's view. */
async function selectedRowInView(page: Page): Promise<void> {
  const track = await page.getByTestId('tl-details').getAttribute('data-selected-track');
  const row = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
  const top = Number(await row.getAttribute('data-top')) - AXIS;
  const h = Number(await row.getAttribute('data-height'));
  const { scrollTop, clientHeight } = await page.locator('.timeline-scroll').evaluate((el) => ({ scrollTop: el.scrollTop, clientHeight: el.clientHeight }));
  expect(top).toBeGreaterThanOrEqual(scrollTop);
  expect(top + h).toBeLessThanOrEqual(scrollTop + clientHeight - AXIS);
}

/**
 * Whether the slice just right-clicked is the event of `kind` starting at
 * `start`: its links (the details' data) arrive after the menu opens, and a
 * click on no slice keeps the selection before, so the menu's "Show in table"
 * (enabled only on a slice, once its links are here) must be enabled too.
 */
async function pickedIs(page: Page, kind: string | RegExp, start: string): Promise<boolean> {
  const details = page.getByTestId('tl-details');
  const onSlice = page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show in table' });
  try {
    await expect
      .poll(async () => {
        const k = (await details.getAttribute('data-selected-kind')) ?? '';
        const kindOk = typeof kind === 'string' ? k === kind : kind.test(k);
        return kindOk && (await details.getAttribute('data-selected-start')) === start && (await onSlice.isEnabled());
      }, { timeout: 3000 })
      .toBe(true);
    return true;
  } catch {
    return false;
  }
}

// Per trace rule with an event per row: the menu item, the CSV column of the
// event's start, the timeline kind it has, and the row picked (one in view).
const CASES = [
  { rule: 'hggc_ppu_trace', item: 'Show Activity on timeline', start: 'Start (ns)', kind: 'kernel', row: 3 },
  { rule: 'hggc_api_trace', item: 'Show API Call on timeline', start: 'Start (ns)', kind: /^api/, row: 5 },
  { rule: 'hggc_kern_exec_trace', item: 'Show API Call on timeline', start: 'API Start (ns)', kind: /^api/, row: 4 },
  { rule: 'hggc_kern_exec_trace', item: 'Show Kernel on timeline', start: 'Kernel Start (ns)', kind: /kernel/i, row: 4 },
  { rule: 'hggc_ppu_kern_gb_trace', item: 'Show Kernel on timeline', start: 'Start (ns)', kind: /kernel/i, row: 2 },
  { rule: 'hgtx_pushpop_trace', item: 'Show HGTX Range on timeline', start: 'Start (ns)', kind: 'hgtx', row: 6 },
  { rule: 'hgtx_kern_trace', item: 'Show Device Activity on timeline', start: 'Kernel Start (ns)', kind: /kernel/i, row: 2 },
  { rule: 'hgtx_ppu_proj_trace', item: 'Show HGTX Range on timeline', start: 'Orig Start (ns)', kind: 'hgtx', row: 1 },
  { rule: 'ppu_op_trace', item: 'Show Device Activity on timeline', start: 'Start (ns)', kind: /kernel|memcpy|memset/i, row: 3 },
  { rule: 'pccl_desync_trace', item: 'Show Last Kernel on timeline', start: null, kind: 'pcclKernel', row: 0 },
] as const;

for (const c of CASES) {
  test(`${c.rule}: "${c.item}" selects and spotlights exactly the row's event, its row in view`, async ({ page }) => {
    expect(await selectRule(page, c.rule)).toBe('ready');
    const { col, rows } = cli(c.rule);
    const row = page.locator(`[data-testid=result-table] .rows .tr[data-row="${c.row}"]`);
    await row.click({ button: 'right' });
    await page.getByTestId('context-menu').getByRole('menuitem', { name: c.item, exact: true }).click();
    await expect(page.getByTestId('timeline-view')).toBeVisible();
    await waitIdle(page);
    const view = page.getByTestId('timeline-view');
    const details = page.getByTestId('tl-details');
    await expect(view).toHaveAttribute('data-spotlight', /^\d+:\d+$/);
    const [track, event] = (await view.getAttribute('data-spotlight'))!.split(':');
    // The spotlit event is the selected one, the details name it, and it is the CSV row's.
    await expect(details).toHaveAttribute('data-selected-track', track);
    await expect(details).toHaveAttribute('data-selected-event', event);
    await expect(details).toHaveAttribute('data-selected-kind', c.kind);
    if (c.start) await expect(details).toHaveAttribute('data-selected-start', rows[c.row][col(c.start)]);
    // Drawn: its own slice at full strength, every other slice in view faded.
    const layer = page.getByTestId('timeline-canvas');
    await expect(layer).toHaveAttribute('data-spotlit', '1');
    await expect(layer).toHaveAttribute('data-dimmed', /^[1-9]\d*$/);
    await selectedRowInView(page);
    // "Clear highlight" ends the spotlight.
    await page.getByTestId('tl-clear-spotlight').click();
    await expect(view).not.toHaveAttribute('data-spotlight', /./);
  });
}

test('pccl_desync_trace: the last kernel shown is the one its Last Kernel column names (its row in HGGC_KERNEL)', async ({ page }) => {
  // Last Kernel is the kernel's row + 1 in HGGC_KERNEL; hggc_ppu_trace lists kernels by start,
  // so the kernel's start is found there by its name and row: its Start is the spotlit event's.
  expect(await selectRule(page, 'pccl_desync_trace')).toBe('ready');
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show Last Kernel on timeline' }).click();
  await waitIdle(page);
  const details = page.getByTestId('tl-details');
  await expect(details).toHaveAttribute('data-selected-kind', 'pcclKernel');
  const start = BigInt((await details.getAttribute('data-selected-start'))!);
  const desync = cli('pccl_desync_trace');
  const first = desync.rows[0];
  const lastStart = BigInt(first[desync.col('Start (ns)')]) + BigInt(first[desync.col('Duration (ns)')]);
  // The last kernel starts inside the communication and ends at or before its end.
  expect(start).toBeGreaterThanOrEqual(BigInt(first[desync.col('Start (ns)')]));
  expect(start).toBeLessThanOrEqual(lastStart);
});

test('a kernel slice: "Show in table" selects its row in hggc_ppu_trace, the CLI\'s row', async ({ page }) => {
  const trace = cli('hggc_ppu_trace');
  const [start, dur, strm, name] = ['Start (ns)', 'Duration (ns)', 'Strm', 'Name'].map(trace.col);
  // A kernel halfway down the trace (not a memory operation: it has a grid).
  let r = Math.floor(trace.rows.length / 2);
  while (trace.rows[r][trace.col('GrdX')] === '-') r++;
  const k = trace.rows[r];
  const s = BigInt(k[start]), d = BigInt(k[dur]);
  await openDemoTimelineAt(page, s - d, s + 2n * d);
  const details = page.getByTestId('tl-details');
  const canvas = page.getByTestId('timeline-canvas');
  const scroller = page.locator('.timeline-scroll');
  // Right-click the middle of each row of its stream until the kernel is the one picked.
  const streams = page
    .getByTestId('timeline-rows')
    .locator('li')
    .filter({ has: page.getByTestId('tl-track').filter({ hasText: new RegExp(`^Stream ${k[strm]}( —|$)`) }) });
  let found = false;
  for (let i = 0; i < (await streams.count()) && !found; i++) {
    const top = Number(await streams.nth(i).getAttribute('data-top'));
    await scroller.evaluate((el, y) => (el.scrollTop = Math.max(0, y - 80)), top);
    await waitIdle(page);
    // The pointer layer is as tall as every row and scrolls with them: a row's data-top is its y on it.
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + top + 8, { button: 'right' });
    await waitIdle(page);
    found = await holdsWithin(() => pickedIs(page, 'kernel', k[start]));
    if (!found) await page.keyboard.press('Escape');
  }
  expect(found, `the kernel at ${k[start]} was right-clicked`).toBe(true);
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show in table' }).click();
  await expect(page.locator('[data-testid=result][data-rule="hggc_ppu_trace"]')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await waitIdle(page);
  await expect(page.getByTestId('selection')).toContainText('1 selected');
  const selected = page.locator('[data-testid=result-table] .rows .tr.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('data-row', String(r));
  await expect(selected).toBeInViewport();
  // Its cells are the CLI's row (Row# the first of both), numbers read without the table's digit groups.
  const plain = (v: string) => (Number.isNaN(parseShown(v)) ? v.trim() : String(parseShown(v)));
  const cells = await selected.locator('[role=cell]').allTextContents();
  expect(cells.map(plain)).toEqual(k.slice(0, cells.length).map(plain));
  expect(cells.length).toBe(trace.header.filter((h) => h !== '').length);
  expect(cells[name]).toBe(k[name]);
});

// An API call's and an HGTX range's slice: their rows in hggc_api_trace and hgtx_pushpop_trace
// (each lists an event once). The slice is reached through the row's "Show on timeline" (checked
// above), which centres it; a right-click on it then leads back.
for (const c of [
  { rule: 'hggc_api_trace', kind: /^api/, item: 'Show API Call on timeline', row: 7 },
  { rule: 'hgtx_pushpop_trace', kind: 'hgtx', item: 'Show HGTX Range on timeline', row: 4 },
] as const) {
  test(`a ${c.rule} slice: "Show in table" selects its row there, the CLI's row`, async ({ page }) => {
    const { rows, col } = cli(c.rule);
    const start = rows[c.row][col('Start (ns)')];
    expect(await selectRule(page, c.rule)).toBe('ready');
    await page.locator(`[data-testid=result-table] .rows .tr[data-row="${c.row}"]`).click({ button: 'right' });
    await page.getByTestId('context-menu').getByRole('menuitem', { name: c.item }).click();
    await waitIdle(page);
    const details = page.getByTestId('tl-details');
    await expect(details).toHaveAttribute('data-selected-start', start);
    await page.getByTestId('tl-clear-spotlight').click();
    // A right-click at the middle of the plot on each lane of its row until it is the slice picked.
    const track = await details.getAttribute('data-selected-track');
    const li = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
    const top = Number(await li.getAttribute('data-top'));
    const height = Number(await li.getAttribute('data-height'));
    const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
    let found = false;
    for (let y = top + 8; y < top + height && !found; y += 16) {
      await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + y, { button: 'right' });
      await waitIdle(page);
      found = await holdsWithin(
        async () => (await pickedIs(page, c.kind, start)) && (await details.getAttribute('data-selected-track')) === track,
      );
      if (!found) await page.keyboard.press('Escape');
    }
    expect(found, 'the event was right-clicked').toBe(true);
    await expect(details).toHaveAttribute('data-selected-kind', c.kind);
    await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show in table' }).click();
    await expect(page.locator(`[data-testid=result][data-rule="${c.rule}"]`)).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await waitIdle(page);
    const selected = page.locator('[data-testid=result-table] .rows .tr.selected');
    await expect(selected).toHaveCount(1);
    await expect(selected).toHaveAttribute('data-row', String(c.row));
    const plain = (v: string) => (Number.isNaN(parseShown(v)) ? v.trim() : String(parseShown(v)));
    const cells = await selected.locator('[role=cell]').allTextContents();
    expect(cells.map(plain)).toEqual(rows[c.row].slice(0, cells.length).map(plain));
  });
}

test('a right-click on no slice (the axis) offers "Show in table" disabled', async ({ page }) => {
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + LABELS + 20, box.y + 8, { button: 'right' });
  await expect(page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show in table' })).toBeDisabled();
});

test('the advice\'s "Open rows" selects the finding\'s row', async ({ page }) => {
  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  const finding = page.locator('[data-testid=advice-finding][data-kind=unreleased_memory]');
  const n = Number(/#(\d+)/.exec((await finding.locator('code').textContent())!)![1]);
  await finding.getByTestId('advice-open-rows').click();
  await expect(page.locator('[data-testid=result][data-rule="device_memory_usage_summary"]')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await waitIdle(page);
  await expect(page.getByTestId('selection')).toContainText('1 selected');
  await expect(page.locator('[data-testid=result-table] .rows .tr.selected')).toHaveAttribute('data-row', String(n - 1));
  // The table is the one the finding was read from: the CLI's unreleased-size rows.
  const expected = parseCsv(asysOut(['stats', '-r', 'device_memory_usage_summary:usage-mode=unreleased-size', '--format', 'csv', DEMO_BASE]));
  await expect(page.getByTestId('result-table')).toHaveAttribute('data-rows', String(expected.length - 1));
});

test('a paged trace: arrows move the focus, Enter selects the focused row, a click moves the focus', async ({ page }) => {
  await page.goto('./?pagedRows=100');
  await waitIdle(page);
  await page.getByTestId('demo-base').first().click();
  await waitIdle(page);
  expect(await selectRule(page, 'hggc_ppu_trace')).toBe('ready');
  const table = page.getByTestId('result-table');
  const focused = table.locator('.rows .tr[data-focused]');
  await table.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-row', '2');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection')).toContainText('1 selected');
  await expect(table.locator('.rows .tr[data-row="2"]')).toHaveAttribute('aria-selected', 'true');
  await table.locator('.rows .tr[data-row="6"]').click();
  await expect(focused).toHaveAttribute('data-row', '6');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByTestId('selection')).toContainText('2 selected');
});

// Issue 23's "What must hold" on real files, a Kineto trace and an Nsight
// Systems export, as the demo's specs check it on the demo: the timeline's
// keys and Backspace's steps, a trace row's "Show on timeline", "Go to Host
// API" with its row scrolled into view, a slice's "Show in table", and the
// advice tab and the timeline (in Chinese: no English of the interface's own). Expected
// values come from the CLI's output on its import of the same file.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { englishTexts } from './english_texts';
import { asysOut, dropFile, holdsWithin, importedCopy, openAppForEachTest, openTimeline, parseCsv, REAL_TRACE_AND_EXPORT, selectRule, timelineWindow, waitIdle } from './helpers';

openAppForEachTest();

const LABELS = 230;
const AXIS = 24;

const REAL = REAL_TRACE_AND_EXPORT;

/** Right-clicks the middle of the plot on timeline row `track`'s first lane (the event "Go to" or "Show on timeline" centred). */
async function rightClickMiddleOf(page: Page, track: string) {
  const top = Number(await page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`).getAttribute('data-top'));
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + LABELS + (box.width - LABELS) / 2, box.y + top + 8, { button: 'right' });
  await waitIdle(page);
}

/** Whether timeline row `track` is inside the timeline's scroll box, below its axis. */
async function rowInView(page: Page, track: string): Promise<boolean> {
  const li = page.getByTestId('timeline-rows').locator(`li[data-track="${track}"]`);
  const top = Number(await li.getAttribute('data-top'));
  const height = Number(await li.getAttribute('data-height'));
  return page.locator('.timeline-scroll').evaluate(
    (el, [t, h, axis]) => t >= el.scrollTop + axis && t + Math.min(h, 16) <= el.scrollTop + el.clientHeight,
    [top, height, AXIS],
  );
}

for (const real of REAL) {
  test(`${real.name}: the timeline's keys and steps, Show on timeline, Go to Host API, Show in table, the advice tab and the timeline in Chinese`, async ({ page }) => {
    test.skip(!existsSync(real.file), `real data file missing: ${real.file}`);
    test.setTimeout(150_000);
    const db = importedCopy(real.file, 'asys-real-');
    await dropFile(page, path.basename(real.file), readFileSync(real.file), real.type);
    await waitIdle(page);
    await expect(page.getByTestId('summary-file')).toHaveText(path.basename(real.file));

    // The keys, with the timeline focused: + zooms (a step), → pans (not a step), Backspace undoes the zoom.
    await openTimeline(page);
    const canvas = page.getByTestId('timeline-canvas');
    const whole = await timelineWindow(page);
    await canvas.focus();
    await page.keyboard.press('+');
    await waitIdle(page);
    const zoomed = await timelineWindow(page);
    expect(zoomed.to - zoomed.from).toBeLessThan(whole.to - whole.from);
    await page.keyboard.press('ArrowRight');
    await waitIdle(page);
    expect((await timelineWindow(page)).from).toBeGreaterThan(zoomed.from);
    await page.keyboard.press('-');
    await page.keyboard.press('+');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await waitIdle(page);
    expect(await timelineWindow(page)).toEqual(whole);

    // A kernel row of hggc_ppu_trace (the CLI's first kernel of the trace): Show on timeline selects and spotlights it.
    const [header, ...trace] = parseCsv(asysOut(['stats', '-r', 'hggc_ppu_trace', '--format', 'csv', db]));
    const [start, grid] = [header.indexOf('Start (ns)'), header.indexOf('GrdX')];
    const r = trace.findIndex((row) => row[grid] !== '-');
    expect(r).toBeGreaterThanOrEqual(0);
    await page.getByTestId('view-stats').click();
    expect(await selectRule(page, 'hggc_ppu_trace')).toBe('ready');
    // The keyboard brings the row into view (the arrows move the table's focus).
    await page.getByTestId('result-table').focus();
    for (let i = 0; i <= r; i++) await page.keyboard.press('ArrowDown');
    await expect(page.locator('[data-testid=result-table] .rows .tr[data-focused]')).toHaveAttribute('data-row', String(r));
    await page.locator(`[data-testid=result-table] .rows .tr[data-row="${r}"]`).click({ button: 'right' });
    await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show Activity on timeline' }).click();
    await expect(page.getByTestId('timeline-view')).toBeVisible();
    await waitIdle(page);
    const details = page.getByTestId('tl-details');
    await expect(details).toHaveAttribute('data-selected-kind', 'kernel');
    await expect(details).toHaveAttribute('data-selected-start', trace[r][start]);
    await expect(canvas).toHaveAttribute('data-spotlit', '1');
    const kernelTrack = (await details.getAttribute('data-selected-track'))!;
    expect(await rowInView(page, kernelTrack)).toBe(true);

    // Its right-click: Go to Host API selects the launching call (hggc_kern_exec_trace's API Start for it) and scrolls its row into view.
    const [eh, ...exec] = parseCsv(asysOut(['stats', '-r', 'hggc_kern_exec_trace', '--format', 'csv', db]));
    const call = exec.find((row) => row[eh.indexOf('Kernel Start (ns)')] === trace[r][start]);
    expect(call, 'the kernel in hggc_kern_exec_trace').toBeDefined();
    await rightClickMiddleOf(page, kernelTrack);
    const menu = page.getByTestId('context-menu');
    await expect(menu.getByRole('menuitem', { name: 'Go to Host API' })).toBeEnabled();
    await menu.getByRole('menuitem', { name: 'Go to Host API' }).click();
    await waitIdle(page);
    await expect(details).toHaveAttribute('data-selected-kind', /^api/);
    await expect(details).toHaveAttribute('data-selected-start', call![eh.indexOf('API Start (ns)')]);
    const apiTrack = (await details.getAttribute('data-selected-track'))!;
    expect(await holdsWithin(() => rowInView(page, apiTrack))).toBe(true);

    // The call's slice: Show in table selects its row in hggc_api_trace (its Start's hover the call's absolute ns).
    await rightClickMiddleOf(page, apiTrack);
    expect(await holdsWithin(async () => (await details.getAttribute('data-selected-track')) === apiTrack)).toBe(true);
    await menu.getByRole('menuitem', { name: 'Show in table' }).click();
    await expect(page.locator('[data-testid=result][data-rule="hggc_api_trace"]')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await waitIdle(page);
    const selected = page.locator('[data-testid=result-table] .rows .tr.selected');
    await expect(selected).toHaveCount(1);
    await expect(selected).toBeInViewport();
    const apiHeaders = await page.locator('[data-testid=result-table] .thead [role=columnheader]').allInnerTexts();
    const startAt = apiHeaders.map((h) => h.replace(/[▲▼]/g, '').trim()).indexOf('Start (ns)');
    expect(startAt).toBeGreaterThanOrEqual(0);
    await expect(selected.locator(`> :nth-child(${startAt + 1})`)).toHaveAttribute('title', new RegExp(`\\b${call![eh.indexOf('API Start (ns)')]}\\b`));

    // The advice tab runs the expert rules on it; under lang=zh it shows no English of its own.
    await page.getByTestId('lang-switch').selectOption('zh');
    await page.getByTestId('advice-tab').click();
    await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    expect(await page.getByTestId('advice-finding').count()).toBeGreaterThanOrEqual(0);
    expect(await englishTexts(page)).toEqual([]);
    // The timeline under lang=zh too.
    await openTimeline(page);
    expect(await englishTexts(page)).toEqual([]);
  });
}

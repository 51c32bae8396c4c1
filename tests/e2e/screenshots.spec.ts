// The README's screenshots (docs/screenshots/), taken from the built app on
// the demo reports. Only with UPDATE_SCREENSHOTS=1 (they are committed
// images; a test run leaves the tree as it was).
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { dragSelect, openAppForEachTest, openDemo, openEventsOf, ROOT, selectRule, timelineRowItems, waitIdle } from './helpers';

const dir = path.join(ROOT, 'docs/screenshots');
test.skip(!process.env.UPDATE_SCREENSHOTS, 'UPDATE_SCREENSHOTS=1 takes the README screenshots');
openAppForEachTest();

test('the README screenshots', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await expect(page.locator('[data-testid=pie-chart]')).toHaveAttribute('data-rendered', 'true');
  await page.screenshot({ path: path.join(dir, 'stats.png') });
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  // The window's slices and counter steps arrive after the tracks.
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-slices', /^[1-9]\d*$/);
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-counter-steps', /^[1-9]\d*$/);
  await page.screenshot({ path: path.join(dir, 'timeline.png') });
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  expect(await selectRule(page, 'ppu_kernel_summary_compare')).toBe('ready');
  await expect(page.getByTestId('hotspot-chart')).toHaveAttribute('data-rendered', 'true');
  await page.screenshot({ path: path.join(dir, 'compare.png') });
});

test('the selection statistics screenshot', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-slices', /^[1-9]\d*$/);
  await dragSelect(page, 0.17, 0.33);
  await waitIdle(page);
  await expect(page.getByTestId('selection-stats')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('selection-stats').locator('[data-testid=result-table]')).toBeVisible();
  await page.screenshot({ path: path.join(dir, 'selection.png') });
});

test('the README screenshot of the Events view', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  // The first stream's Events view, from its label's right-click menu, a row shown on the timeline.
  await openEventsOf(page, timelineRowItems(page, /^Stream \d+/).first());
  await page.locator('[data-testid=events-view] [data-testid=result-table] .rows .tr[data-row="3"]').click({ button: 'right' });
  await page.getByTestId('context-menu').getByRole('menuitem', { name: 'Show on timeline', exact: true }).click();
  await waitIdle(page);
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute('data-spotlit', '1');
  await page.screenshot({ path: path.join(dir, 'events.png') });
});

test('the README screenshot of the advice tab', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.getByTestId('advice-finding').first()).toBeVisible();
  await waitIdle(page);
  await page.screenshot({ path: path.join(dir, 'advice.png') });
});

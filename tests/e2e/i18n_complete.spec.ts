// Every string of the interface exists in Chinese (issue 23): under lang=zh
// the statistics, compare and timeline views, the advice tab and the
// right-click menus show no English text of the app's own. What stays as it is: the reports' data (table cells and column
// names, the pie's and tree's labels, file, host, process and track names),
// the CLI line, rule names, product names, units and numbers; a text with
// Chinese in it may keep the manual's English terms (HGTX range, kernel).
import { expect, test } from '@playwright/test';
import { englishTexts } from './english_texts';
import { dragSelect, openAppForEachTest, selectRule, waitIdle } from './helpers';

openAppForEachTest();

test('under lang=zh the landing, statistics, compare and timeline views, the advice tab and the menus show no English of their own', async ({ page }) => {
  test.setTimeout(180_000);
  const found: string[] = [];
  const look = async (where: string) => found.push(...(await englishTexts(page)).map((t) => `${where}: ${t}`));
  await page.getByTestId('lang-switch').selectOption('zh');
  await look('landing');
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await look('compare');
  // A compare row's menu (Mark on either report's timeline).
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'ready');
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await expect(page.getByTestId('context-menu')).toBeVisible();
  await look('compare row menu');
  await page.keyboard.press('Escape');
  await page.getByTestId('view-stats').click();
  await selectRule(page, 'hggc_ppu_kern_sum');
  await look('stats');
  // The advice tab.
  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await look('advice');
  await selectRule(page, 'hggc_ppu_kern_sum');
  // A summary row's menu, then its kernel marked on the timeline (the Unmark button).
  await page.locator('[data-testid=result-table] .rows .tr[data-row="0"]').click({ button: 'right' });
  await expect(page.getByTestId('context-menu')).toBeVisible();
  await look('stats row menu');
  await page.getByTestId('context-menu').getByRole('menuitem').last().click();
  await expect(page.getByTestId('timeline-view')).toBeVisible();
  await waitIdle(page);
  await expect(page.getByTestId('tl-clear-mark')).toBeVisible();
  await look('timeline marked');
  await page.getByTestId('tl-clear-mark').click();
  // The timeline's own right-click menu.
  const box = (await page.getByTestId('timeline-canvas').boundingBox())!;
  await page.mouse.click(box.x + 400, box.y + 80, { button: 'right' });
  await expect(page.getByTestId('context-menu')).toBeVisible();
  await look('timeline menu');
  await page.keyboard.press('Escape');
  await page.getByTestId('view-stats').click();
  await selectRule(page, 'ppu_op_kernel_breakdown');
  await look('stats tree');
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  await page.waitForTimeout(500);
  await look('timeline');
  // The hover tooltips: a counter's value, then a slice's.
  const layer = page.getByTestId('timeline-canvas');
  const width = (await layer.boundingBox())!.width;
  const tip = page.getByTestId('timeline-tip');
  const memory = page.getByTestId('timeline-rows').locator('li').filter({ hasText: /^Memory in use/ }).first();
  const at = async (row: typeof memory) => ({ top: Number(await row.getAttribute('data-top')), height: Number(await row.getAttribute('data-height')) });
  const m = await at(memory);
  await layer.hover({ position: { x: 230 + (width - 230) * 0.6, y: m.top + m.height / 2 } });
  await expect(tip).toBeVisible();
  await look('counter tooltip');
  const stream = await at(page.getByTestId('timeline-rows').locator('li').filter({ has: page.getByTestId('tl-track').filter({ hasText: /^Stream \d+/ }) }).first());
  let tipped = false;
  for (let x = 240; x < width && !tipped; x += 23) {
    await layer.hover({ position: { x, y: stream.top + 8 } });
    tipped = (await tip.count()) > 0;
  }
  expect(tipped, 'a slice of the first stream row under the pointer').toBe(true);
  await look('slice tooltip');
  await page.mouse.move(0, 0);
  // A drag selection's statistics under the timeline.
  await dragSelect(page, 0.3, 0.55);
  await waitIdle(page);
  await expect(page.getByTestId('selection-stats')).toHaveAttribute('data-status', 'ready');
  await look('timeline selection');
  console.log(found.join('\n'));
  expect(found).toEqual([]);
});

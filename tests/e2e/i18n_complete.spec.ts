// Every string of the interface exists in Chinese (issue 23): under lang=zh
// the statistics, compare and timeline views show no English text of the
// app's own. What stays as it is: the reports' data (table cells and column
// names, the pie's and tree's labels, file, host, process and track names),
// the CLI line, rule names, product names, units and numbers; a text with
// Chinese in it may keep the manual's English terms (HGTX range, kernel).
import { expect, test } from '@playwright/test';
import { englishTexts } from './english_texts';
import { dragSelect, openAppForEachTest, selectRule, waitIdle } from './helpers';

openAppForEachTest();

test('under lang=zh the landing, statistics, compare and timeline views show no English of their own', async ({ page }) => {
  const found: string[] = [];
  const look = async (where: string) => found.push(...(await englishTexts(page)).map((t) => `${where}: ${t}`));
  await page.getByTestId('lang-switch').selectOption('zh');
  await look('landing');
  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await look('compare');
  await page.getByTestId('view-stats').click();
  await selectRule(page, 'hggc_ppu_kern_sum');
  await look('stats');
  await selectRule(page, 'ppu_op_kernel_breakdown');
  await look('stats tree');
  await page.getByTestId('view-timeline').click();
  await waitIdle(page);
  await page.waitForTimeout(500);
  await look('timeline');
  // A drag selection's statistics under the timeline.
  await dragSelect(page, 0.3, 0.55);
  await waitIdle(page);
  await expect(page.getByTestId('selection-stats')).toHaveAttribute('data-status', 'ready');
  await look('timeline selection');
  console.log(found.join('\n'));
  expect(found).toEqual([]);
});

// Chinese and English: the header's switch changes the app's own texts and
// the rules' titles and option labels (declared in the engine, titleZh /
// labelZh); the choice is remembered; the first visit follows the browser.
import { expect, test } from '@playwright/test';
import { openAppForEachTest, openDemo, selectRule } from './helpers';

openAppForEachTest();

const CJK = /[\u4e00-\u9fff]/;

test('the language switch changes the visible texts and is remembered', async ({ page }) => {
  await page.goto('./');
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  await expect(page.getByTestId('rule-title')).toHaveText('HGGC PPU Kernel Summary');
  await expect(page.getByTestId('view-stats')).toHaveText('Statistics');
  await expect(page.getByTestId('setting-rows')).toContainText('Maximum number of results');

  await page.getByTestId('lang-switch').selectOption('zh');
  // The documentation's wording: 2.3.7 HGGC PPU kernel汇总, 规则设置 of 2.3.7.
  await expect(page.getByTestId('rule-title')).toHaveText('HGGC PPU kernel汇总');
  await expect(page.getByTestId('view-stats')).toHaveText('统计');
  await expect(page.getByTestId('setting-rows')).toContainText('展示结果的最大行数');
  await expect(page.getByTestId('export-csv')).toHaveText('导出CSV');
  await expect(page.getByTestId('rule-hgtx_sum').locator('.rule-title')).toHaveText('HGTX range汇总');
  // Every rule of the list has its Chinese title.
  const titles = await page.locator('[data-testid=rule-list] .rule-title').allTextContents();
  expect(titles.length).toBeGreaterThan(20);
  expect(titles.filter((t) => !CJK.test(t))).toEqual([]);
  expect(new URL(page.url()).hash).toContain('lang=zh');

  // Remembered: a fresh visit without a link opens in Chinese.
  await page.goto('./');
  await expect(page.getByTestId('landing')).toContainText('将报告拖放到本页面任意位置');
  await page.getByTestId('lang-switch').selectOption('en');
  await expect(page.getByTestId('landing')).toContainText('Drop a report anywhere on this page');
});

test('the first visit follows the browser language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'zh-CN', serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('./');
  await expect(page.getByTestId('landing')).toContainText('将报告拖放到本页面任意位置');
  await expect(page.getByTestId('lang-switch')).toHaveValue('zh');
  await context.close();
});

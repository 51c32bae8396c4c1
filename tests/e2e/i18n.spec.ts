// Chinese and English: the header's switch changes the app's own texts and
// the rules' titles, descriptions, option labels, help and choice labels
// (declared in the engine: titleZh, descriptionZh, labelZh, helpZh,
// choiceLabelsZh); the choice is remembered; the first visit follows the browser.
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

test("a rule's description and its options' help follow the language", async ({ page }) => {
  await page.goto('./');
  await openDemo(page);
  await selectRule(page, 'hggc_ppu_kern_sum');
  const description = page.getByTestId('rule-description');
  const deviceHelp = page.getByTestId('setting-device').locator('label');
  const baseMode = page.getByTestId('setting-name-mode').locator('option[value=base]');
  await expect(description).toContainText('Time spent in each HGGC kernel');
  await expect(deviceHelp).toHaveAttribute('title', /^PPU device IDs to include/);

  await page.getByTestId('lang-switch').selectOption('zh');
  // 2.3.7's 统计规则 and its options list, word for word.
  await expect(description).toContainText(
    '按照每HGGC kernel名称进行统计，HGGC kernel名称取决于base / mangled选项是否设置，默认为demangle后kernel名称（包含函数参数列表），按照HGGC kernel总耗时降序输出。',
  );
  await expect(deviceHelp).toHaveAttribute(
    'title',
    '指定统计的PPU device ID列表，多个PPU device ID之间通过/分割。若不指定，默认统计所有PPU device。',
  );
  await expect(page.getByTestId('setting-rows').locator('label')).toHaveAttribute('title', /^限制输出结果的条数。/);
  await expect(baseMode).toHaveAttribute('title', '使用kernel的短名称（仅函数名，不包含参数）进行统计和输出。');
  await expect(baseMode).toHaveText('Base');
  await expect(page.getByTestId('th-0')).toHaveAttribute('title', /点击排序$/);
  // A choice's label: 2.3.1's words for the usage modes, the value unchanged.
  await selectRule(page, 'device_memory_usage_summary');
  const mode = page.getByTestId('setting-usage-mode').locator('select');
  await expect(mode.locator('option[value=unreleased-size]')).toHaveText('泄漏的内存量汇总');
  await expect(mode.locator('option[value=alloc-count]')).toHaveText('申请的内存次数汇总');
  await expect(page.getByTestId('setting-usage-mode').locator('label')).toHaveAttribute('title', /^统计数据种类。/);
  await selectRule(page, 'hggc_ppu_kern_sum');

  await page.getByTestId('lang-switch').selectOption('en');
  await expect(description).toContainText('Time spent in each HGGC kernel');
  await expect(description).not.toContainText('按照');
  await expect(deviceHelp).toHaveAttribute('title', /^PPU device IDs to include/);
  await expect(baseMode).toHaveAttribute('title', "Use the kernel's short name (function name only, no parameters).");
  await expect(page.getByTestId('th-0')).toHaveAttribute('title', /click to sort$/);
});

// Light and dark themes (remembered, the first visit from prefers-color-scheme)
// and the keyboard shortcuts `?` lists.
import { expect, test } from '@playwright/test';
import { openAppForEachTest, openDemo, selectRule } from './helpers';

openAppForEachTest();

const bg = (page: import('@playwright/test').Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the theme follows the system first, switches, and is remembered', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark', serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bg(page)).toBe('rgb(20, 23, 28)');
  await page.getByTestId('theme-toggle').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await bg(page)).toBe('rgb(245, 246, 248)');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await context.close();
});

test('? lists the shortcuts, and they switch view, theme and language', async ({ page }) => {
  await page.goto('./');
  await openDemo(page, 'base');
  await openDemo(page, 'slow');
  await page.locator('body').press('?');
  const dialog = page.getByTestId('shortcuts');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Search the rules');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.locator('body').press('c');
  await expect(page.getByTestId('compare-info')).toBeVisible();
  await page.locator('body').press('s');
  await expect(page.getByTestId('compare-info')).toHaveCount(0);
  const theme = await page.locator('html').getAttribute('data-theme');
  await page.locator('body').press('t');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', theme!);
  await page.locator('body').press('l');
  await expect(page.getByTestId('view-stats')).toHaveText('统计');
  await page.locator('body').press('/');
  await expect(page.locator('.rule-search')).toBeFocused();
  // Typing in the search box is text, not a shortcut.
  await page.keyboard.type('sl');
  await expect(page.locator('.rule-search')).toHaveValue('sl');
  await expect(page.getByTestId('view-stats')).toHaveText('统计');
});

test('the letters act where the focus is: a focused table keeps them, the page gets them back', async ({ page }) => {
  await page.goto('./');
  await openDemo(page, 'base');
  await openDemo(page, 'slow');
  await selectRule(page, 'hggc_ppu_kern_sum');
  const table = page.getByTestId('result-table');
  await table.focus();
  const theme = await page.locator('html').getAttribute('data-theme');
  for (const key of ['t', 'l', 'c']) await table.press(key);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme!);
  await expect(page.getByTestId('compare-info')).toHaveCount(0);
  await expect(page.getByTestId('view-stats')).toHaveText('Statistics');
  // `?` is no letter: it still opens the list.
  await table.press('?');
  await expect(page.getByTestId('shortcuts')).toBeVisible();
  await page.keyboard.press('Escape');
  // The focus leaves the table: the page's letters again.
  await table.blur();
  await page.keyboard.press('t');
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', theme!);
});

// Permalinks: the URL's fragment holds the view state; reopening the link and
// the same files restores it; a broken link says what it could not restore.
import { expect, test, type Page } from '@playwright/test';
import { columnTexts, openAppForEachTest, openDemo, selectRule, waitIdle, waitResult } from './helpers';

openAppForEachTest();

const cli = (page: Page) => page.locator('.cli-spec').textContent();

test('a link restores rule, settings and time range once the same report opens', async ({ page }) => {
  await page.goto('./?demo=base');
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  await selectRule(page, 'hggc_ppu_kern_sum');
  await page.getByTestId('setting-rows').locator('input').fill('2');
  await page.getByTestId('setting-name-mode').locator('select').selectOption({ label: 'Base' });
  await page.getByTestId('time-to').fill('1s');
  await page.getByTestId('time-apply').click();
  const shownRange = await page.getByTestId('time-window').textContent();
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const command = await cli(page);
  expect(command).toBe('asys stats --filter-time /1000000000 -r hggc_ppu_kern_sum:rows=2:base');
  await expect(page.getByTestId('row-count')).toHaveText('2 rows');
  const names = await columnTexts(page, 'Name');
  const url = new URL(page.url());
  expect(url.search).toBe('?demo=base');
  expect(url.hash).toBe(
    '#v=1&view=stats&rule=hggc_ppu_kern_sum&o.rows=2&o.name-mode=base' +
      '&report.0=demo-base.asysrep&time.0=%2F1000000000&base=0&lang=en',
  );

  // The same URL in a fresh page: ?demo=base opens the report, the fragment the rest.
  const again = await page.context().newPage();
  await again.goto(url.href);
  expect(await waitResult(again, 'hggc_ppu_kern_sum')).toBe('ready');
  await expect(again.getByTestId('time-window')).toHaveText(shownRange!);
  expect(await cli(again)).toBe(command);
  expect(await columnTexts(again, 'Name')).toEqual(names);
  await expect(again.getByTestId('link-notice')).toHaveCount(0);

  // Without ?demo: the page names the file the link waits for, and restores once it is opened.
  const bare = await page.context().newPage();
  await bare.goto(`./${url.hash}`);
  await expect(bare.getByTestId('link-waiting')).toContainText('demo-base.asysrep');
  await openDemo(bare, 'base');
  expect(await waitResult(bare, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await cli(bare)).toBe(command);
  await expect(bare.getByTestId('link-notice')).toHaveCount(0);
  expect(new URL(bare.url()).hash).toBe(url.hash);
});

test('a compare link restores the pair, its order and the aliases', async ({ page }) => {
  await page.goto('./?demo=pair');
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-base/);
  await waitIdle(page);
  await page.getByTestId('swap').click();
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-slow/);
  await page.getByTestId('alias-target').getByTestId('alias').dblclick();
  await page.getByTestId('alias-input').fill('before');
  await page.getByTestId('alias-input').press('Enter');
  await expect(page.getByTestId('alias-target')).toHaveText(/before/);
  await waitIdle(page);
  const hash = new URL(page.url()).hash;
  expect(hash).toContain('view=compare');
  expect(hash).toContain('report.0=demo-base.asysrep&alias.0=before&report.1=demo-slow.asysrep&base=1&target=0');

  await page.reload();
  await expect(page.getByTestId('alias-base')).toHaveText(/demo-slow/);
  await expect(page.getByTestId('alias-target')).toHaveText(/before/);
  await waitIdle(page);
  expect(new URL(page.url()).hash).toBe(hash);
});

test('an old or broken link still opens the app and says what it could not restore', async ({ page }) => {
  await page.goto('./#v=9&view=stats');
  await expect(page.getByTestId('landing')).toBeVisible();
  await expect(page.getByTestId('link-problems')).toContainText(
    'The link is of version 9; this viewer reads version 1: nothing restored.',
  );

  await page.goto('./?demo=base#v=1&view=flamegraph&rule=no_such_rule&o.x=1&report.0=demo-base.asysrep&base=0');
  const problems = page.getByTestId('link-problems');
  await expect(problems).toContainText('view "flamegraph" is not one of stats, compare, timeline: the statistics view opens.');
  await expect(problems).toContainText('"no_such_rule" is no statistics rule of this viewer: its first rule shows.');
  const rule = await page.locator('[data-testid=result]').getAttribute('data-rule');
  expect(await waitResult(page, rule!)).toBe('ready');
  await page.getByTestId('link-forget').click();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  expect(new URL(page.url()).hash).toContain(`rule=${rule}`);
});

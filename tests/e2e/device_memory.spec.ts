// The device memory rules in the viewer: rows and pies on the demo, the
// Usage Mode labels of the documentation's GUI part, and the Group Config
// list (starts as the built-in groups, each entry checked as typed, saving
// refused while one is invalid, one saved list for both rules).
import { expect, test } from '@playwright/test';
import { columnTexts, openDemo, selectRule, tableRows, waitResult, openAppForEachTest } from './helpers';

openAppForEachTest();

test('both rules give rows with the documented columns and a pie, in the documented modes', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'device_memory_usage_summary')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);
  await expect(page.getByTestId('result-table').locator('.thead')).toContainText('Memory Usage (bytes)');
  await expect(page.locator('[data-testid=pie-chart] canvas')).toBeVisible();
  // The built-in groups apply: the demo's weights come through the caching allocator.
  expect((await columnTexts(page, 'Group List')).join(' ')).toContain('torch_caching_allocator');
  const mode = page.getByTestId('setting-usage-mode').locator('select');
  await expect(mode.locator('option')).toHaveText([
    'Total Alloc Size',
    'Unreleased Alloc Size',
    'Total Alloc Count',
    'Unreleased Alloc Count',
  ]);
  await mode.selectOption('unreleased-count');
  await expect(page.locator('.cli-spec')).toContainText('-r device_memory_usage_summary:usage-mode=unreleased-count');
  expect(await waitResult(page, 'device_memory_usage_summary')).toBe('ready');
  await expect(page.getByTestId('result-table').locator('.thead')).not.toContainText('(bytes)');

  expect(await selectRule(page, 'device_memory_usage_detail')).toBe('ready');
  const unreleased = await tableRows(page).count();
  expect(unreleased).toBeGreaterThan(0);
  await expect(page.getByTestId('result-table').locator('.thead')).toContainText('Memory');
  await expect(page.locator('[data-testid=pie-chart] canvas')).toBeVisible();
  await page.getByTestId('setting-usage-mode').locator('select').selectOption({ label: 'All Alloc and Free Trace' });
  expect(await waitResult(page, 'device_memory_usage_detail')).toBe('ready');
  const count = async () => Number((await page.getByTestId('row-count').innerText()).replace(/\D/g, ''));
  expect(await count()).toBeGreaterThan(unreleased); // the demo frees its workspaces every iteration
});

test('the group config list is checked as typed and applies to both rules once saved', async ({ page }) => {
  await openDemo(page);
  expect(await selectRule(page, 'device_memory_usage_summary')).toBe('ready');
  const editor = page.getByTestId('global-callstack-group-config');
  await editor.locator('summary').click();
  await expect(editor.locator('summary')).toContainText('(built-in)');
  const entries = editor.locator('[data-testid^=global-entry-]');
  const builtIn = await entries.count();
  expect(builtIn).toBeGreaterThanOrEqual(5);
  await expect(entries.first()).toHaveValue(/^acompute=/);

  // Down to one entry, then an invalid one: the engine's error, no saving.
  for (let i = 1; i < builtIn; ++i) await editor.getByTestId('global-remove-0').click();
  await expect(entries).toHaveCount(1);
  await entries.first().fill('loss=(loss');
  await expect(editor.getByTestId('global-error-0')).toContainText('missing closing parenthesis');
  await expect(editor.getByTestId('global-save')).toBeDisabled();
  await entries.first().fill('nameless');
  await expect(editor.getByTestId('global-error-0')).toContainText("no '='");
  await expect(editor.getByTestId('global-save')).toBeDisabled();

  // A valid entry (a Python frame): saved, the rule runs with it.
  await entries.first().fill('loss=loss\\.py');
  await expect(editor.getByTestId('global-error-0')).toHaveCount(0);
  await editor.getByTestId('global-save').click();
  await expect(page.locator('.cli-spec')).toContainText("--callstack-group-config 'loss=loss\\.py'");
  expect(await waitResult(page, 'device_memory_usage_summary')).toBe('ready');
  const groups = new Set(await columnTexts(page, 'Group List'));
  expect(groups).toEqual(new Set(['loss', 'others'])); // the demo's loss history is never freed

  // The detail rule reads the same saved list.
  expect(await selectRule(page, 'device_memory_usage_detail')).toBe('ready');
  await expect(page.locator('.cli-spec')).toContainText("--callstack-group-config 'loss=loss\\.py'");
  for (const g of await columnTexts(page, 'Group List')) expect(['loss', 'others']).toContain(g);

  // Back to the built-in list: no option on the command line. (The editor is
  // the same one, still open: the option is global.)
  const detailEditor = page.getByTestId('global-callstack-group-config');
  expect(await detailEditor.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
  await detailEditor.getByRole('button', { name: 'Built-in list' }).click();
  await detailEditor.getByTestId('global-save').click();
  await expect(page.locator('.cli-spec')).not.toContainText('--callstack-group-config');
  expect(await waitResult(page, 'device_memory_usage_detail')).toBe('ready');
});

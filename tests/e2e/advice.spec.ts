// The advice tab on the demo: its findings' figures are worked out from the
// CLI's tables of the same rules (asys stats / analyze on demo-base):
// - ppu_gaps: 4 gaps, 2,576,897,772 ns in all, the longest 649,209,186 ns on device 2 (PID 1051054);
// - pccl_desync_summary: twoShotAllReduce averages 78.9% (100% of the time); the ring kernel's
//   21.7% is 0.0% of the time, below the 1% floor;
// - ppu_op_sum: the top operator is 87.3% active, above 80%: no finding;
// - hggc_ppu_trace: 16 copies from pageable memory, 298,290,416 ns, the longest 18,643,151 ns;
// - device_memory_usage_summary: at most 1,476,395,008 bytes (1.4 GiB) never released in one of its 26 rows,
//   12,276,940,800 bytes (11.4 GiB) in all, every row above 1 MiB.
import { expect, test } from '@playwright/test';
import { openAppForEachTest, openDemo, waitIdle } from './helpers';

openAppForEachTest();

async function openAdvice(page: import('@playwright/test').Page) {
  await openDemo(page);
  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

test('the advice tab turns the expert rules into findings with their figures', async ({ page }) => {
  await openAdvice(page);
  const findings = page.getByTestId('advice-finding');
  expect(await findings.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual([
    'ppu_gaps',
    'ppu_time_util',
    'pccl_desync',
    'pageable_memcpy',
    'unreleased_memory',
  ]);
  const text = (kind: string) => page.locator(`[data-testid=advice-finding][data-kind=${kind}] p`);
  await expect(text('ppu_gaps')).toContainText('4 gaps longer than 500 ms (2.577 s in all)');
  await expect(text('ppu_gaps')).toContainText('649.2 ms, is on device 2 (PID 1051054)');
  await expect(text('ppu_time_util')).toContainText('at 0.0%');
  await expect(text('pccl_desync')).toContainText('twoShotAllReduce');
  await expect(text('pccl_desync')).toContainText('78.9% of its time');
  await expect(text('pageable_memcpy')).toContainText('16 memory copies use pageable host memory (298.3 ms in all, the longest 18.6 ms)');
  await expect(text('unreleased_memory')).toContainText('1.4 GiB of device memory');
  await expect(text('unreleased_memory')).toContainText('(11.4 GiB over 26 process, device and allocator groups)');
  await expect(page.getByTestId('advice-none')).toHaveCount(0);
});

test("a finding opens its rule's rows and shows its place on the timeline", async ({ page }) => {
  await openAdvice(page);
  const gap = page.locator('[data-testid=advice-finding][data-kind=ppu_gaps]');
  await gap.getByTestId('advice-open-rows').click();
  await expect(page.getByTestId('result')).toHaveAttribute('data-rule', 'ppu_gaps');
  await expect(page.getByTestId('result')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('advice')).toHaveCount(0);

  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  // A summary's finding has no span: no timeline button.
  await expect(page.locator('[data-testid=advice-finding][data-kind=pccl_desync] [data-testid=advice-show-on-timeline]')).toHaveCount(0);
  await page.locator('[data-testid=advice-finding][data-kind=ppu_gaps]').getByTestId('advice-show-on-timeline').click();
  await expect(page.getByTestId('timeline-view')).toBeVisible({ timeout: 30_000 });
  await waitIdle(page);
});

test('the advice tab reads in Chinese', async ({ page }) => {
  await openDemo(page);
  await page.getByTestId('lang-switch').selectOption('zh');
  await expect(page.getByTestId('advice-tab')).toHaveText('优化建议');
  await page.getByTestId('advice-tab').click();
  await expect(page.getByTestId('advice')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(page.locator('[data-testid=advice-finding][data-kind=ppu_gaps] p')).toContainText('设备有 4 段超过 500 ms 的空闲');
  await expect(page.getByTestId('advice-open-rows').first()).toHaveText('打开对应行');
  await expect(page.getByTestId('advice-show-on-timeline').first()).toHaveText('在时间线上显示');
});

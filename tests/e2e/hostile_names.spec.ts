// Names that are markup, quotes, commas, newlines and right-to-left marks
// render as text everywhere the viewer shows a name: the table, the pie's
// tooltip and legend, the compare chart, the timeline's labels (canvas) and
// tooltip, and the exports (the CLI's bytes). Nothing they hold runs.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sqlReport } from '../corpus/corpus.mjs';
import { asysOut, columnTexts, dropFile, exportedCsv, openAppForEachTest, selectRule, waitIdle } from './helpers';


// kernels.sql's kernel demangled names (StringIds 10, 13, 16, 19) and an API
// name (1) replaced by hostile ones (SQL string literals).
const HOSTILE: [number, string, string][] = [
  [10, "'<script>window.pwned=1</script>gemm'", '<script>window.pwned=1</script>gemm'],
  [13, `'<img src=x onerror="window.pwned=2">, "sum", 3'`, '<img src=x onerror="window.pwned=2">, "sum", 3'],
  [16, "'copy' || char(10) || 'kernel\"\"'", 'copy\nkernel""'],
  [19, "'scale' || char(8238) || 'lacol' || char(8236) || ' (rtl)'", 'scale\u202elacol\u202c (rtl)'],
  [1, "'hg,Launch<b>Kernel</b>'", 'hg,Launch<b>Kernel</b>'],
];

const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-hostile-'));
const REPORT = path.join(dir, 'hostile.asysrep');

openAppForEachTest();

test.beforeAll(() => {
  sqlReport(REPORT, 'kernels.sql', ...HOSTILE.map(([id, sql]) => `UPDATE StringIds SET value = ${sql} WHERE id = ${id}`));
});

// Nothing a name holds became an element or ran.
async function expectInert(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  await expect(page.locator('#root script, #root img')).toHaveCount(0);
  await expect(page.locator('#root b', { hasText: /^Kernel$/ })).toHaveCount(0); // from 'hg,Launch<b>Kernel</b>'
}

async function open(page: Page) {
  await page.getByTestId('file-input').first().setInputFiles(REPORT);
  await expect(page.getByTestId('summary-file')).toHaveText('hostile.asysrep');
  await waitIdle(page);
}

test('hostile names are text in the table, the pie tooltip and the exports', async ({ page }) => {
  await open(page);
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const names = await columnTexts(page, 'Name');
  for (const [id, , text] of HOSTILE) if (id !== 1) expect(names).toContain(text);

  // The pie: hover round the ring until the tooltip shows a name.
  const pie = page.getByTestId('pie-chart');
  await expect(pie).toHaveAttribute('data-rendered', 'true');
  const box = (await pie.boundingBox())!;
  const seen = new Set<string>();
  for (let a = 0; a < 24; a++) {
    const r = Math.min(box.width, box.height) * 0.3;
    await page.mouse.move(box.x + box.width / 2 + r * Math.cos((a * Math.PI) / 12), box.y + box.height / 2 + r * Math.sin((a * Math.PI) / 12));
    const tip = await pie.evaluate((el) => (el.querySelector('div[style*="max-width:320px"]') as HTMLElement | null)?.textContent);
    if (tip) seen.add(tip);
  }
  expect([...seen].some((t) => HOSTILE.some(([, , name]) => t === name))).toBe(true);
  await expectInert(page);

  // The export is the CLI's bytes.
  const exported = await exportedCsv(page);
  const cli = asysOut(['stats', '-r', 'hggc_ppu_kern_sum', REPORT]);
  expect(exported.lines.join('\n')).toBe(cli.trimEnd());

  expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');
  expect(await columnTexts(page, 'Name')).toContain('hg,Launch<b>Kernel</b>');
  await expectInert(page);
});

test('hostile names are text in the timeline and its tooltip', async ({ page }) => {
  await open(page);
  await page.getByTestId('view-timeline').click();
  const canvas = page.getByTestId('timeline-canvas');
  await expect(canvas).toBeVisible();
  await waitIdle(page);
  const box = (await canvas.boundingBox())!;
  const tips = new Set<string>();
  for (let y = 10; y < box.height; y += 12) {
    for (let x = box.width * 0.2; x < box.width; x += box.width / 10) {
      await page.mouse.move(box.x + x, box.y + y);
      const tip = page.locator('.timeline-tip');
      if (await tip.count()) tips.add((await tip.textContent()) ?? '');
    }
  }
  expect(tips.size).toBeGreaterThan(0);
  expect([...tips].some((t) => HOSTILE.some(([, , name]) => t.includes(name)))).toBe(true);
  await expectInert(page);
});

test('hostile names are text in the compare table and chart', async ({ page }) => {
  // the same report twice: every kernel matches itself
  await dropFile(page, 'hostile.asysrep', readFileSync(REPORT));
  await waitIdle(page);
  await dropFile(page, 'hostile-copy.asysrep', readFileSync(REPORT));
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  expect(await selectRule(page, 'ppu_kernel_summary_compare')).toBe('ready');
  const chart = page.getByTestId('hotspot-chart');
  await expect(chart).toHaveAttribute('data-rendered', 'true');
  await expect(page.getByTestId('result-table')).toContainText(HOSTILE[0][2]);
  const box = (await chart.boundingBox())!;
  for (let y = 20; y < box.height; y += 15) await page.mouse.move(box.x + box.width * 0.6, box.y + y);
  await expectInert(page);
});

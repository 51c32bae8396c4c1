// Every string of the interface exists in Chinese (issue 23): under lang=zh
// the statistics, compare and timeline views show no English text of the
// app's own. What stays as it is: the reports' data (table cells and column
// names, the pie's and tree's labels, file, host, process and track names),
// the CLI line, rule names, product names, units and numbers; a text with
// Chinese in it may keep the manual's English terms (HGTX range, kernel).
import { expect, test, type Page } from '@playwright/test';
import { dragSelect, openAppForEachTest, selectRule, waitIdle } from './helpers';

openAppForEachTest();

/** Subtrees whose text is the report's data or a command line, never the interface's. */
const DATA = [
  '[data-testid=result-table]',
  '[data-testid=breakdown-tree] .tree-label',
  '[data-testid=breakdown-tree] .tree-head',
  '.pie-legend',
  '.cli-spec',
  '.rule-name',
  '[data-testid=report-summary] dd',
  '.report-tab-name',
  '[data-testid=alias-base]',
  '[data-testid=alias-target]',
  '.compare-info td',
  'option',
  '.chip',
  '[data-testid=timeline-rows]',
  '[data-testid=selection-devices] .device-name',
  '[data-testid=summary-file]',
];
/** Words that are names, units or products in both languages. */
const ALLOWED = new Set(
  ['HGGC', 'HGTX', 'PCCL', 'PPU', 'CSV', 'XLSX', 'API', 'ID', 'OP', 'ns', 'us', 'µs', 'ms', 's', 'MiB', 'KiB', 'GiB', 'TiB', 'bytes',
   'asys', 'Kineto', 'Nsight', 'Systems', 'SQLite', 'PyTorch', 'JSON', 'gz', 'asysrep', 'sqlite', 'json', 'zip', 'WebAssembly',
   'GEMM', 'MoE', 'ALL', 'HBM', 'NVTX', 'CUDA', 'kernel', 'range', 'Ctrl', 'Shift', 'Esc', 'Enter', 'Tab'].map((w) => w.toLowerCase()),
);

/** The visible text nodes outside the data that hold an English word. */
async function englishTexts(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ data, allowed }) => {
      const skip = data.join(',');
      const out = new Set<string>();
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement!;
        if (el.closest(skip) || el.closest('script,style')) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || !el.checkVisibility()) continue;
        const text = (n.textContent ?? '').trim();
        // A text with Chinese in it is translated; the English terms it keeps are the manual's (HGTX range, kernel).
        if (/[\u4e00-\u9fff]/.test(text)) continue;
        const words = text.match(/[A-Za-z]{2,}/g) ?? [];
        if (words.some((w) => !allowed.includes(w.toLowerCase()) && !/^[a-z]+_[a-z_]+$/.test(w))) out.add(text);
      }
      // Placeholders and titles of inputs are shown too.
      for (const el of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
        if (el.closest(skip) || !el.checkVisibility() || /[\u4e00-\u9fff]/.test(el.placeholder)) continue;
        const words = el.placeholder.match(/[A-Za-z]{2,}/g) ?? [];
        if (words.some((w) => !allowed.includes(w.toLowerCase()))) out.add(`placeholder: ${el.placeholder}`);
      }
      return [...out];
    },
    { data: DATA, allowed: [...ALLOWED] },
  );
}

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

// The visible English of the interface's own under lang=zh (issue 23): the
// texts outside the reports' data that hold an English word which is not a
// name, unit or product. i18n_complete.spec.ts walks the views with it; the
// specs of views it does not open (the Events view) call it too.
import type { Page } from '@playwright/test';

/** Subtrees whose text is the report's data or a command line, never the interface's. */
export const DATA = [
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
  '[data-testid=events-row]',
  // the rule a finding was read from, by name, and its row number
  '.advice-findings code',
];
/** Words that are names, units or products in both languages. */
const ALLOWED = ['HGGC', 'HGTX', 'PCCL', 'PPU', 'CSV', 'XLSX', 'API', 'ID', 'OP', 'ns', 'us', 'µs', 'ms', 's', 'MiB', 'KiB', 'GiB', 'TiB',
  'bytes', 'asys', 'Kineto', 'Nsight', 'Systems', 'SQLite', 'PyTorch', 'JSON', 'gz', 'asysrep', 'sqlite', 'json', 'zip', 'WebAssembly',
  'GEMM', 'MoE', 'ALL', 'HBM', 'NVTX', 'CUDA', 'kernel', 'range', 'Ctrl', 'Shift', 'Esc', 'Enter', 'Tab'].map((w) => w.toLowerCase());

/** The visible text nodes (and input placeholders) outside the data that hold an English word. */
export async function englishTexts(page: Page): Promise<string[]> {
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
        // A text with Chinese in it is translated; the English terms it keeps are the manual's.
        if (/[\u4e00-\u9fff]/.test(text)) continue;
        const words = text.match(/[A-Za-z]{2,}/g) ?? [];
        if (words.some((w) => !allowed.includes(w.toLowerCase()) && !/^[a-z]+_[a-z_]+$/.test(w))) out.add(text);
      }
      for (const el of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
        if (el.closest(skip) || !el.checkVisibility() || /[\u4e00-\u9fff]/.test(el.placeholder)) continue;
        const words = el.placeholder.match(/[A-Za-z]{2,}/g) ?? [];
        if (words.some((w) => !allowed.includes(w.toLowerCase()))) out.add(`placeholder: ${el.placeholder}`);
      }
      return [...out];
    },
    { data: DATA, allowed: ALLOWED },
  );
}

// The operator rules in the viewer: selected-row sums in the header's second
// row (the Summary row never counted), the breakdown tree, "Parse from" and
// the merge group in the generated settings, each checked against the CLI.
import { expect, test, type Page } from '@playwright/test';
import {
  asysOut,
  DEMO_BASE,
  exportedCsv,
  headers,
  openAppForEachTest,
  parseCsv,
  selectRule,
  waitResult,
} from './helpers';


/** The CLI's CSV as a header and rows of fields. */
function cli(spec: string): { head: string[]; rows: string[][] } {
  const [head, ...rows] = parseCsv(asysOut(['stats', '-r', spec, DEMO_BASE]));
  return { head, rows: rows.map((r) => r.slice(0, head.length)) };
}
const shown = (s: string) => Number(s.replace(/[\s\u202f]/g, ''));

openAppForEachTest({ demo: true });

async function sumOf(page: Page, header: string): Promise<number> {
  const i = (await headers(page)).indexOf(header);
  expect(i, header).toBeGreaterThanOrEqual(0);
  // The table's Row# comes first when the rule has none of its own.
  return shown(await page.getByTestId('sums-row').locator(`> :nth-child(${i + 1})`).innerText());
}

test('ppu_op_type_sum sums Total Time, Instances and PPU Active Time of the selected rows, never the Summary row', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_type_sum')).toBe('ready');
  const { head, rows } = cli('ppu_op_type_sum');
  const col = (name: string) => head.findIndex((h) => h.startsWith(name));
  expect(rows[0][col('OP Type')]).toBe('Summary');
  const total = (rs: string[][], name: string) => rs.reduce((a, r) => a + Number(r[col(name)]), 0);
  const types = rows.slice(1);
  // Nothing selected: every row but Summary, which is itself their total.
  await expect(page.getByTestId('sums-row')).toBeVisible();
  expect(await sumOf(page, 'Total Time (ns)')).toBe(total(types, 'Total Time'));
  expect(total(types, 'Total Time')).toBe(Number(rows[0][col('Total Time')]));
  expect(await sumOf(page, 'Instances')).toBe(total(types, 'Instances'));
  expect(await sumOf(page, 'PPU Active Time (ns)')).toBe(total(types, 'PPU Active Time'));

  // Click the second type, Ctrl-click the third and the Summary row: two types summed.
  const row = (i: number) => page.locator(`[data-testid=result-table] .rows .tr[data-row="${i}"]`);
  await row(1).click();
  await row(2).click({ modifiers: ['Control'] });
  await row(0).click({ modifiers: ['Control'] });
  await expect(page.getByTestId('selection')).toContainText('3 selected');
  expect(await sumOf(page, 'Total Time (ns)')).toBe(total(types.slice(0, 2), 'Total Time'));
  // Shift-click: the rows from the anchor (the Summary row) to the fourth.
  await row(3).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection')).toContainText('4 selected');
  expect(await sumOf(page, 'Instances')).toBe(total(types.slice(0, 3), 'Instances'));
  await page.getByRole('button', { name: 'Clear selection' }).click();
  expect(await sumOf(page, 'Total Time (ns)')).toBe(total(types, 'Total Time'));
});

test('ppu_op_type_sum: a selected row the Filter search hides is not summed, and counts again when shown', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_type_sum')).toBe('ready');
  const { head, rows } = cli('ppu_op_type_sum');
  const col = (name: string) => head.findIndex((h) => h.startsWith(name));
  // Every sums cell shows its whole text (the column is as wide as the largest sum it can show).
  const clipped = await page.getByTestId('sums-row').locator('[role=cell]').evaluateAll((cells) =>
    cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
  );
  expect(clipped).toEqual([]);
  const row = (i: number) => page.locator(`[data-testid=result-table] .rows .tr[data-row="${i}"]`);
  // Rows 1..3 (the three largest types after Summary) selected.
  await row(1).click();
  await row(3).click({ modifiers: ['Shift'] });
  await expect(page.getByTestId('selection')).toContainText('3 selected');
  const picked = rows.slice(1, 4);
  const time = (rs: string[][]) => rs.reduce((a, r) => a + Number(r[col('Total Time')]), 0);
  expect(await sumOf(page, 'Total Time (ns)')).toBe(time(picked));
  // Filter to the first selected type's name: the other two selected rows are hidden and not summed.
  const name = picked[0][col('OP Type')];
  await page.getByTestId('table-search-mode').selectOption('filter');
  await page.getByTestId('table-search-input').fill(name);
  await expect(page.locator('[data-testid=result-table] .rows .tr')).toHaveCount(rows.filter((r) => r.join(',').includes(name)).length);
  expect(await sumOf(page, 'Total Time (ns)')).toBe(time(picked.filter((r) => r.join(',').includes(name))));
  await page.getByTestId('table-search-input').fill('');
  await expect(page.locator('[data-testid=result-table] .rows .tr')).toHaveCount(rows.length);
  expect(await sumOf(page, 'Total Time (ns)')).toBe(time(picked));
});

test('ppu_op_type_sum: arrows move the focus over the rows, Enter selects, Shift+Enter a range, and the sums follow', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_type_sum')).toBe('ready');
  const { head, rows } = cli('ppu_op_type_sum');
  const time = (rs: string[][]) => rs.reduce((a, r) => a + Number(r[head.findIndex((h) => h.startsWith('Total Time'))]), 0);
  const table = page.getByTestId('result-table');
  const focused = table.locator('.rows .tr[data-focused]');
  await table.focus();
  await page.keyboard.press('ArrowDown'); // the first row (Summary)
  await page.keyboard.press('ArrowDown');
  await expect(focused).toHaveAttribute('data-row', '1');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('selection')).toContainText('1 selected');
  await expect(table.locator('.rows .tr[data-row="1"]')).toHaveAttribute('aria-selected', 'true');
  expect(await sumOf(page, 'Total Time (ns)')).toBe(time(rows.slice(1, 2)));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+Enter');
  await expect(page.getByTestId('selection')).toContainText('3 selected');
  expect(await sumOf(page, 'Total Time (ns)')).toBe(time(rows.slice(1, 4)));
  await page.keyboard.press('End');
  await expect(focused).toHaveAttribute('data-row', String(rows.length - 1));
  await page.keyboard.press('Home');
  await expect(focused).toHaveAttribute('data-row', '0');
});

test('ppu_op_kernel_breakdown: the tree has one node per framework group, and a node selects its rows', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_kernel_breakdown')).toBe('ready');
  const { head, rows } = cli('ppu_op_kernel_breakdown');
  // A framework group: OP Type and the four framework cells (after Row#).
  const group = (r: string[]) => r.slice(1, head.indexOf('Library OP')).join('|');
  const groups = [...new Set(rows.map(group))];
  const tree = page.getByTestId('breakdown-tree');
  await expect(tree).toBeVisible();
  await expect(tree.locator('[data-testid=tree-node][data-level="0"]')).toHaveCount(groups.length);
  await page.getByTestId('tree-expand-all').click();
  // Every row is one kernel-level node under its library node.
  await expect(tree.locator('[data-testid=tree-node][data-level="2"]')).toHaveCount(
    new Set(rows.map((r) => `${group(r)}|${r.slice(head.indexOf('Library OP')).join('|')}`)).size,
  );
  const first = tree.locator('[data-testid=tree-node][data-level="0"]').first();
  await first.locator('.tree-label').click();
  const members = rows.filter((r) => group(r) === groups[0]).length;
  await expect(page.getByTestId('selection')).toContainText(`${members} selected`);
  // The group's first row (the table's first) is shown selected.
  await expect(page.locator('[data-testid=result-table] .rows .tr[data-row="0"]')).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('toggle-tree').click();
  await expect(tree).toHaveCount(0);
});

test('ppu_op_kernel_breakdown: the tree names its cells in a header row and shows each name whole', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_kernel_breakdown')).toBe('ready');
  const { head, rows } = cli('ppu_op_kernel_breakdown');
  const tree = page.getByTestId('breakdown-tree');
  // One header per quantity a level repeats (Framework/Library/Kernel Time (%), Avg (ns), Instances), then the levels.
  await expect(page.getByTestId('tree-head').locator('[role=columnheader]')).toHaveText([
    'Time (%)',
    'Avg (ns)',
    'Instances',
    'Framework OP › Library OP › Kernel Name',
  ]);
  expect(head.slice(3, 6)).toEqual(['Framework Time (%)', 'Framework Avg (ns)', 'Framework Instances']);
  await page.getByTestId('tree-expand-all').click();
  // The first row's kernel (the CLI's), the longest of its path, whole: its box is as wide as its text.
  const kernel = tree.locator('[data-testid=tree-node][data-level="2"] .tree-label-text').first();
  await expect(kernel).toHaveText(rows[0][head.indexOf('Kernel Name')]);
  const { scroll, client } = await kernel.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
  // Its cells are the CLI's, grouped, in the header's order.
  await expect(tree.locator('[data-testid=tree-node][data-level="2"]').first().locator('.tree-cell')).toHaveText([
    `${rows[0][head.indexOf('Kernel Time (%)')]} %`,
    rows[0][head.indexOf('Kernel Avg (ns)')].replace(/\B(?=(\d{3})+$)/g, '\u202f'),
    rows[0][head.indexOf('Kernel Instances')],
  ]);
});

test('ppu_op_sum: Parse from, the merge group and the pie by OP Type or OP Name', async ({ page }) => {
  expect(await selectRule(page, 'ppu_op_sum')).toBe('ready');
  const merge = page.getByTestId('setting-group-Merge operator parameters');
  await expect(merge.locator('input[type=checkbox]')).toHaveCount(6);
  await expect(page.getByTestId('pie-key').locator('option')).toHaveText(['OP Type', 'OP Name']);

  const parse = page.getByTestId('setting-parse-from');
  await parse.locator('[data-choice=gemm]').click();
  await parse.locator('[data-choice=moe]').click();
  expect(await waitResult(page, 'ppu_op_sum')).toBe('ready');
  await expect(page.locator('.cli-spec')).toContainText('ppu_op_sum:parse-from=gemm/moe');
  const expected = asysOut(['stats', '-r', 'ppu_op_sum:parse-from=gemm/moe', DEMO_BASE]);
  const all = asysOut(['stats', '-r', 'ppu_op_sum', DEMO_BASE]);
  expect(expected).not.toBe(all);
  expect((await exportedCsv(page)).lines).toEqual(expected.trimEnd().split('\n'));

  // Unticking "Merge GEMM parameters" is the CLI's no-merge-gemm-parameter.
  await merge.getByTestId('setting-no-merge-gemm-parameter').locator('input').uncheck();
  expect(await waitResult(page, 'ppu_op_sum')).toBe('ready');
  const unmerged = asysOut(['stats', '-r', 'ppu_op_sum:no-merge-gemm-parameter:parse-from=gemm/moe', DEMO_BASE]);
  expect((await exportedCsv(page)).lines).toEqual(unmerged.trimEnd().split('\n'));
});

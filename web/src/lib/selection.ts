// Selected rows of a result table and the sums of the rule's declared
// columns over them (the documentation's 通过选中行来统计求列和: the sums of the
// selected rows in the header's second row, of every row shown when none is
// selected; a summary row never counts).
import { findColumn, formatNumber, MISSING_TEXT, type DecodedResult } from './result';

export interface Selection {
  rows: ReadonlySet<number>;
  /** Where a shift-click range starts: the last row clicked. */
  anchor: number | null;
}

export const NO_SELECTION: Selection = { rows: new Set(), anchor: null };

/**
 * A click on a result row: alone it selects that row (or clears it when it
 * was the only one); `toggle` (Ctrl/Cmd) adds or removes it; `range` (Shift)
 * selects the rows shown between the anchor and it, in the table's order.
 */
export function clickRow(
  sel: Selection,
  row: number,
  mods: { toggle: boolean; range: boolean },
  order: ArrayLike<number>,
): Selection {
  if (mods.range && sel.anchor !== null) {
    const from = indexOf(order, sel.anchor);
    const to = indexOf(order, row);
    if (from >= 0 && to >= 0) {
      const rows = new Set(mods.toggle ? sel.rows : []);
      for (let i = Math.min(from, to); i <= Math.max(from, to); i++) rows.add(order[i]);
      return { rows, anchor: sel.anchor };
    }
  }
  if (mods.toggle) {
    const rows = new Set(sel.rows);
    if (rows.has(row)) rows.delete(row);
    else rows.add(row);
    return { rows, anchor: row };
  }
  if (sel.rows.size === 1 && sel.rows.has(row)) return NO_SELECTION;
  return { rows: new Set([row]), anchor: row };
}

function indexOf(order: ArrayLike<number>, row: number): number {
  for (let i = 0; i < order.length; i++) if (order[i] === row) return i;
  return -1;
}

/** Whether `row` is the table's summary row: its first text column reads `summaryRow`. */
export function summaryRowTest(t: DecodedResult, summaryRow: string): (row: number) => boolean {
  const col = t.columns.findIndex((c) => c.kind === 'Text');
  const id = summaryRow && col >= 0 ? t.texts.indexOf(summaryRow) : -1;
  if (id < 0) return () => false;
  const cells = t.cells[col];
  return (row) => cells[row] === id && cells[row] !== MISSING_TEXT;
}

export interface ColumnSum {
  col: number;
  value: number | bigint;
  text: string;
}

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The rows a sum counts, in shown order: the selected rows the table shows
 * (a selected row the Filter search hides is not counted), or every shown
 * row when none is selected.
 */
export function summedRows(selected: ReadonlySet<number>, shown: ArrayLike<number>): Uint32Array {
  const out: number[] = [];
  for (let i = 0; i < shown.length; i++) if (selected.size === 0 || selected.has(shown[i])) out.push(shown[i]);
  return Uint32Array.from(out);
}

/**
 * The sums of the named numeric columns over summedRows (the selected rows
 * shown, else every row shown); "-" cells and the summary row are left out.
 * Integers stay exact past 2^53 (BigInt).
 */
export function columnSums(
  t: DecodedResult,
  names: string[],
  selected: ReadonlySet<number>,
  shown: ArrayLike<number>,
  isSummary: (row: number) => boolean,
): ColumnSum[] {
  const counted = [...summedRows(selected, shown)].filter((r) => r < t.rowCount && !isSummary(r));
  const out: ColumnSum[] = [];
  for (const name of names) {
    const col = findColumn(t, name);
    if (col < 0 || !t.columns[col].numeric) continue;
    const cells = t.cells[col] as Float64Array;
    const exact = t.exact[col];
    let sum = 0;
    for (const r of counted) if (!Number.isNaN(cells[r])) sum += cells[r];
    let value: number | bigint = sum;
    if (t.columns[col].kind === 'Int' && (exact || Math.abs(sum) > SAFE)) {
      let big = 0n;
      for (const r of counted) if (!Number.isNaN(cells[r])) big += exact ? exact[r] : BigInt(cells[r]);
      value = big;
    }
    out.push({ col, value, text: formatNumber(t.columns[col], value) });
  }
  return out;
}

/**
 * The table position the keyboard focus moves to from `at` (-1: none yet)
 * among `n` shown rows, `page` rows a page: arrows one row, Page Up/Down a
 * page, Home/End the ends, clamped; null for a key that does not move it.
 */
export function movedFocus(at: number, key: string, n: number, page: number): number | null {
  if (n === 0) return null;
  const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
  let to: number;
  if (key === 'Home') to = 0;
  else if (key === 'End') to = n - 1;
  else if (key in step) to = at < 0 ? (step[key] > 0 ? 0 : n - 1) : at + step[key];
  else return null;
  return Math.max(0, Math.min(n - 1, to));
}

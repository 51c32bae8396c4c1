// Sorting the result's rows by one column, as a permutation of row indices
// (the data itself never moves). Numbers sort numerically, text by a
// natural-order collation ("iter 9" before "iter 10"; code-unit order past
// COLLATE_LIMIT distinct texts); "-" cells always go last; ties keep the
// engine's order.
import { MISSING_TEXT, type DecodedResult } from './result';

export type SortDir = 'asc' | 'desc';

export interface SortState {
  col: number;
  dir: SortDir;
}

const collator = new Intl.Collator(undefined, { numeric: true });

export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

// Past this many distinct texts the collation is too slow for a click
// (seconds per million): plain code-unit order is used instead.
export const COLLATE_LIMIT = 100_000;

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rank of every pool text in sorted order (equal texts share a rank). */
export function textRanks(texts: string[]): Uint32Array {
  const cmp = texts.length <= COLLATE_LIMIT ? compareText : compareCodeUnits;
  const idx = Uint32Array.from(texts.keys());
  idx.sort((a, b) => cmp(texts[a], texts[b]) || a - b);
  const ranks = new Uint32Array(texts.length);
  let rank = 0;
  for (let i = 0; i < idx.length; i++) {
    if (i > 0 && cmp(texts[idx[i - 1]], texts[idx[i]]) !== 0) rank++;
    ranks[idx[i]] = rank;
  }
  return ranks;
}

/**
 * Returns `rows` (row indices) ordered by column `col`. `rows` is not changed.
 */
export function sortRows(t: DecodedResult, rows: Uint32Array, col: number, dir: SortDir): Uint32Array {
  const n = rows.length;
  const keys = new Float64Array(t.rowCount);
  const present: number[] = [];
  const missing: number[] = [];
  const column = t.columns[col];
  const cells = t.cells[col];
  if (column.kind === 'Text') {
    const ranks = textRanks(t.texts);
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const v = cells[r];
      if (v === MISSING_TEXT || v >= ranks.length) missing.push(r);
      else {
        keys[r] = ranks[v];
        present.push(r);
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      const v = cells[r];
      if (Number.isNaN(v)) missing.push(r);
      else {
        keys[r] = v;
        present.push(r);
      }
    }
  }
  // Positions in the incoming order break ties (a stable sort).
  const pos = new Uint32Array(t.rowCount);
  for (let i = 0; i < n; i++) pos[rows[i]] = i;
  const sign = dir === 'asc' ? 1 : -1;
  const sorted = Uint32Array.from(present);
  sorted.sort((a, b) => sign * (keys[a] - keys[b]) || pos[a] - pos[b]);
  const out = new Uint32Array(n);
  out.set(sorted, 0);
  for (let i = 0; i < missing.length; i++) out[sorted.length + i] = missing[i];
  return out;
}

/** The next sort state after a click on column `col`: asc -> desc -> engine order. */
export function nextSort(cur: SortState | null, col: number, numeric: boolean): SortState | null {
  // Numbers start descending (biggest first), text ascending (A first).
  const first: SortDir = numeric ? 'desc' : 'asc';
  if (!cur || cur.col !== col) return { col, dir: first };
  if (cur.dir === first) return { col, dir: first === 'asc' ? 'desc' : 'asc' };
  return null;
}

// Reading a compare rule's table (core/compare): "base / target" cells, the
// Base / Target key columns, and the hotspot chart's rows.
import { cellDisplay, findColumn, type DecodedResult } from './result';

/** "54.5 / 30.0" -> [54.5, 30.0]; "- / 40.0" -> [null, 40.0]; "-" -> [null, null]. */
export function pairValues(text: string): [number | null, number | null] {
  const parts = text.split(' / ');
  const num = (s: string | undefined) => {
    if (s === undefined || s.trim() === '-' || s.trim() === '') return null;
    const n = Number(s.replace(/[\s\u202f]/g, ''));
    return Number.isFinite(n) ? n : null;
  };
  return parts.length === 2 ? [num(parts[0]), num(parts[1])] : [null, null];
}

/** The columns that name a row on each side ("Base Kernel", "Target Kernel"). */
export function sideKeyColumns(t: DecodedResult): { base: number; target: number } {
  const base = t.columns.findIndex((c) => c.name.startsWith('Base '));
  const target = t.columns.findIndex((c) => c.name.startsWith('Target '));
  return { base, target };
}

/** Whether a column holds "base / target" cells (every text column but the side keys). */
export function isPairColumn(t: DecodedResult, col: number): boolean {
  const c = t.columns[col];
  return c.kind === 'Text' && !c.name.startsWith('Base ') && !c.name.startsWith('Target ');
}

export interface Hotspot {
  row: number;
  label: string;
  base: number | null;
  target: number | null;
}

/** The first `limit` rows in the table's order, with their two shares. */
export function hotspots(t: DecodedResult, shareColumn: string, limit: number, order?: ArrayLike<number>): Hotspot[] {
  const share = findColumn(t, shareColumn);
  const { base, target } = sideKeyColumns(t);
  if (share < 0) return [];
  const out: Hotspot[] = [];
  const n = Math.min(limit, order ? order.length : t.rowCount);
  for (let i = 0; i < n; i++) {
    const row = order ? order[i] : i;
    const [b, tg] = pairValues(cellDisplay(t, row, share));
    const bk = base >= 0 ? cellDisplay(t, row, base) : '-';
    const label = bk !== '-' ? bk : target >= 0 ? cellDisplay(t, row, target) : String(row + 1);
    out.push({ row, label, base: b, target: tg });
  }
  return out;
}

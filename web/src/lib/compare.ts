// Reading a compare rule's table (core/compare): "base / target" cells, the
// Base / Target key columns, and the hotspot chart's rows, for both layouts
// of the compare layer: pairs ("54.5 / 30.0" cells) and side blocks (each
// report's own "Base ..." / "Target ..." columns, the breakdown compares).
import type { ColumnSpec } from '../engine/types';
import { cellDisplay, cellValue, findColumn, type DecodedResult } from './result';

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

const isSide = (name: string) => name.startsWith('Base ') || name.startsWith('Target ');

/**
 * Whether a column holds "base / target" cells: a text column the rule
 * declares a value (not a shared key such as OP Type, not one side's own
 * cell); without a declaration, every text column but the side columns.
 */
export function isPairColumn(t: DecodedResult, col: number, declared?: ColumnSpec[]): boolean {
  const c = t.columns[col];
  if (c.kind !== 'Text') return false;
  const decl = declared?.find((d) => d.name === c.name);
  return decl ? decl.role === 'value' : !isSide(c.name);
}

export interface Hotspot {
  row: number;
  label: string;
  base: number | null;
  target: number | null;
}

/** The nearest text column of one side before `col` ("Base Kernel" before "Base Kernel Time"). */
function sideLabelColumn(t: DecodedResult, col: number, side: 'Base ' | 'Target '): number {
  for (let c = col - 1; c >= 0; c--) if (t.columns[c].kind === 'Text' && t.columns[c].name.startsWith(side)) return c;
  return -1;
}

/**
 * The first `limit` rows in the table's order, with their two shares: the
 * `shareColumn` pair, or, in the side-blocks layout, its "Base " and
 * "Target " columns (labelled by the side's nearest name column).
 */
export function hotspots(t: DecodedResult, shareColumn: string, limit: number, order?: ArrayLike<number>): Hotspot[] {
  const pair = findColumn(t, shareColumn);
  const pairMode = pair >= 0 && t.columns[pair].kind === 'Text';
  const baseShare = pairMode ? -1 : findColumn(t, `Base ${shareColumn}`);
  const targetShare = pairMode ? -1 : findColumn(t, `Target ${shareColumn}`);
  if (!pairMode && (baseShare < 0 || targetShare < 0)) return [];
  const keys = pairMode
    ? sideKeyColumns(t)
    : { base: sideLabelColumn(t, baseShare, 'Base '), target: sideLabelColumn(t, targetShare, 'Target ') };
  const num = (row: number, col: number) => {
    const v = cellValue(t, row, col);
    return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null;
  };
  const out: Hotspot[] = [];
  const n = Math.min(limit, order ? order.length : t.rowCount);
  for (let i = 0; i < n; i++) {
    const row = order ? order[i] : i;
    const [b, tg] = pairMode ? pairValues(cellDisplay(t, row, pair)) : [num(row, baseShare), num(row, targetShare)];
    const bk = keys.base >= 0 ? cellDisplay(t, row, keys.base) : '-';
    const label = bk !== '-' ? bk : keys.target >= 0 ? cellDisplay(t, row, keys.target) : String(row + 1);
    out.push({ row, label, base: b, target: tg });
  }
  return out;
}

/** The last text column whose name starts with `side`: the row's name there (the deepest level's in the side-blocks layout). */
function lastSideText(t: DecodedResult, side: 'Base ' | 'Target '): number {
  for (let c = t.columns.length - 1; c >= 0; c--) if (t.columns[c].kind === 'Text' && t.columns[c].name.startsWith(side)) return c;
  return -1;
}

/**
 * What a compare row names in each report ("Base Kernel" / "Target
 * Kernel", "Base Range", ...: a kernel's or a range's name, as that
 * report's timeline names its slices), null for a side without the row or
 * a rule whose rows name no text (a device id).
 */
export function sideNames(t: DecodedResult, row: number): { base: string | null; target: string | null } {
  const at = (col: number) => {
    const v = col >= 0 ? cellValue(t, row, col) : null;
    return typeof v === 'string' && v !== '' && v !== '-' ? v : null;
  };
  return { base: at(lastSideText(t, 'Base ')), target: at(lastSideText(t, 'Target ')) };
}

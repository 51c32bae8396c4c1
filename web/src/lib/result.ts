// The columnar rule result (runRule) decoded for display: one typed array per
// column, text cells as indices into one NUL-joined pool that is split once.
import { cellKindOf, headerOf } from '../engine/normalize';
import type { CellArray, CellKind, RawRuleResult, RowSpans } from '../engine/types';
import { formatDecimal1, formatInt } from './format';

/** A Text cell that does not apply ("-"). */
export const MISSING_TEXT = 0xffffffff;

export interface ResultColumn {
  name: string;
  unit: string;
  kind: CellKind;
  header: string;
  numeric: boolean;
  /** Digits grouped (quantities); identifiers (PID, Device ID, ...) are written plain. */
  grouped: boolean;
}

/** Identifier columns: PID, TID, Device ID, DevId, Correlation ID, Graph Id, Last Process / Device / Kernel, ... */
export function isIdColumn(name: string): boolean {
  return (
    /(^|[\s_])(id|pid|tid|devid|uuid)$/i.test(name) ||
    /\bID\b|Id$/.test(name) ||
    /^Last (Process|Device|Kernel)$/.test(name)
  );
}

export interface DecodedResult {
  columns: ResultColumn[];
  rowCount: number;
  texts: string[];
  cells: CellArray[];
  /** The rows' time spans (what a timeline zooms to); empty for summaries. */
  spans: RowSpans[];
  /** What the rule had to leave out, one line each. */
  warnings: string[];
}

export type CellValue = number | string | null;

export function decodeResult(raw: RawRuleResult): DecodedResult {
  const rowCount = Math.max(0, Number(raw.rowCount) || 0);
  const cells = raw.cells ?? [];
  const columns: ResultColumn[] = (raw.columns ?? []).map((c, i) => {
    const arr = cells[i];
    // The array type is the ground truth; the declared kind refines Int vs Decimal1.
    const fallback: CellKind = arr instanceof Uint32Array ? 'Text' : 'Int';
    let kind = cellKindOf(c.kind, fallback);
    if (arr instanceof Uint32Array) kind = 'Text';
    else if (arr instanceof Float64Array && kind === 'Text') kind = 'Int';
    const name = String(c.name ?? '');
    const unit = String(c.unit ?? '');
    const numeric = kind !== 'Text';
    return { name, unit, kind, header: c.header || headerOf(name, unit), numeric, grouped: numeric && !isIdColumn(name) };
  });
  for (let i = 0; i < columns.length; i++) {
    const a = cells[i];
    if (!a || a.length < rowCount) {
      throw new Error(`result column ${i + 1} (${columns[i].header}) has ${a ? a.length : 0} cells, expected ${rowCount}`);
    }
  }
  const texts = raw.textPool ? raw.textPool.split('\0') : [];
  const spans = (raw.spans ?? []).filter((s) => s.start.length >= rowCount && s.end.length >= rowCount);
  return { columns, rowCount, texts, cells: cells.slice(0, columns.length), spans, warnings: raw.warnings ?? [] };
}

/** The cell's value: a number, a string, or null for "-". */
export function cellValue(t: DecodedResult, row: number, col: number): CellValue {
  const a = t.cells[col];
  const v = a[row];
  if (t.columns[col].kind === 'Text') {
    if (v === MISSING_TEXT || v >= t.texts.length) return null;
    return t.texts[v];
  }
  return Number.isNaN(v) ? null : v;
}

/** A number as its column shows it. */
export function formatNumber(c: ResultColumn, v: number): string {
  if (!Number.isFinite(v)) return '-';
  if (c.kind === 'Decimal1') return c.grouped ? formatDecimal1(v) : v.toFixed(1);
  return c.grouped ? formatInt(v) : String(Math.trunc(v));
}

/** The cell as the table shows it. */
export function cellDisplay(t: DecodedResult, row: number, col: number): string {
  const v = cellValue(t, row, col);
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  return formatNumber(t.columns[col], v);
}

/** The cell as a plain key (pie slices, filters): text as is, numbers ungrouped. */
export function cellKey(t: DecodedResult, row: number, col: number): string {
  const v = cellValue(t, row, col);
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  return t.columns[col].kind === 'Decimal1' ? v.toFixed(1) : String(v);
}

/** All rows as arrays of values (tests and small tables). */
export function toRows(t: DecodedResult): CellValue[][] {
  const rows: CellValue[][] = [];
  for (let r = 0; r < t.rowCount; r++) {
    const row: CellValue[] = [];
    for (let c = 0; c < t.columns.length; c++) row.push(cellValue(t, r, c));
    rows.push(row);
  }
  return rows;
}

/** Finds a column by its name or its header text (exactly, else ignoring case). */
export function findColumn(t: { columns: { name: string; header: string }[] }, nameOrHeader: string): number {
  let i = t.columns.findIndex((c) => c.name === nameOrHeader);
  if (i < 0) i = t.columns.findIndex((c) => c.header === nameOrHeader);
  if (i < 0) {
    const low = nameOrHeader.toLowerCase();
    i = t.columns.findIndex((c) => c.name.toLowerCase() === low || c.header.toLowerCase() === low);
  }
  return i;
}

export function identityOrder(n: number): Uint32Array {
  const a = new Uint32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

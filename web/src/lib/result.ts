// The columnar rule result (run) decoded for display: one typed array per
// column, text cells as indices into one NUL-joined pool that is split once.
// Integer columns arrive exact (int64); they are shown from doubles, which
// hold every value up to 2^53 exactly, and a column with larger values (epoch
// nanoseconds) keeps its int64 cells too, for exact display and keys.
import { cellKindOf, headerOf } from '../engine/normalize';
import type { CellArray, CellKind, RawRuleResult, RowEvents, RowSpans, RuleFile, ShownTimes } from '../engine/types';
import { displayApiName } from './display_names';
import { formatDecimal1, formatInt } from './format';
import { cellSinceZero, isTimePointColumn } from './time_zero';

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
  /** Time points on the report's clock (Start, End, ...): shown from the result's time zero. */
  timePoint: boolean;
}

/** Identifier columns: PID, TID, Device ID, DevId, Correlation ID, Graph Id, Last Process / Device / Kernel, ... */
export function isIdColumn(name: string): boolean {
  return (
    /(^|[\s_])(id|pid|tid|devid|uuid)$/i.test(name) ||
    /\bID\b|Id$/.test(name) ||
    /^Last (Process|Device|Kernel)$/.test(name)
  );
}

/** Display cells: numbers as doubles (NaN = "-"), text as pool indices. */
export type DisplayCells = Float64Array | Uint32Array;

export interface DecodedResult {
  columns: ResultColumn[];
  rowCount: number;
  texts: string[];
  cells: DisplayCells[];
  /** Per column: the exact int64 cells where some value is beyond 2^53, else null. */
  exact: (BigInt64Array | null)[];
  /** The rows' time spans (what a timeline zooms to); empty for summaries. */
  spans: RowSpans[];
  /** The report events the rows stand for (a trace row's kernel), by identity; empty for summaries. */
  events: RowEvents[];
  /** What the rule had to leave out, one line each. */
  warnings: string[];
  /** Files the rule made besides the table, for download. */
  files: RuleFile[];
  /** Kept in the engine (more rows than the page holds): `cells` and `spans` are empty, pages come by pageRows. */
  paged?: boolean;
  /** A paged result's span names (each page brings its rows' spans). */
  spanNames?: string[];
  /** A paged result's event names (each page brings its rows' events). */
  eventNames?: string[];
  /**
   * The report's time zero (absolute ns, lib/time_zero.ts): the time point
   * columns show their cells as ns since it; null shows them as they are.
   */
  zero: bigint | null;
}

export type CellValue = number | bigint | string | null;

const INT64_MIN = -(2n ** 63n);
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** An int64 column as doubles (NaN = "-"), and itself when a double cannot hold some value. */
function fromInt64(a: BigInt64Array): { cells: Float64Array; exact: BigInt64Array | null } {
  const cells = new Float64Array(a.length);
  let unsafe = false;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (v === INT64_MIN) cells[i] = NaN;
    else {
      cells[i] = Number(v);
      unsafe ||= v > SAFE || v < -SAFE;
    }
  }
  return { cells, exact: unsafe ? a : null };
}

/** The engine's result for display; `zero` the report's time zero its time columns count from (null: as they are). */
export function decodeResult(raw: RawRuleResult, zero: bigint | null = null): DecodedResult {
  const rowCount = Math.max(0, Number(raw.rowCount) || 0);
  const exact: (BigInt64Array | null)[] = [];
  const cells: DisplayCells[] = (raw.cells ?? []).map((a: CellArray, i) => {
    if (!(a instanceof BigInt64Array)) {
      exact[i] = null;
      return a;
    }
    const d = fromInt64(a);
    exact[i] = d.exact;
    return d.cells;
  });
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
    const grouped = numeric && !isIdColumn(name);
    return { name, unit, kind, header: c.header || headerOf(name, unit), numeric, grouped, timePoint: kind === 'Int' && isTimePointColumn(name, unit) };
  });
  for (let i = 0; i < columns.length && !raw.paged; i++) {
    const a = cells[i];
    if (!a || a.length < rowCount) {
      throw new Error(`result column ${i + 1} (${columns[i].header}) has ${a ? a.length : 0} cells, expected ${rowCount}`);
    }
  }
  const texts = raw.textPool ? raw.textPool.split('\0') : [];
  const spans = (raw.spans ?? []).filter((s) => s.start.length >= rowCount && s.end.length >= rowCount);
  const events = (raw.events ?? []).filter((e) => e.table.length >= rowCount && e.index.length >= rowCount);
  return {
    columns,
    rowCount,
    texts,
    cells: cells.slice(0, columns.length),
    exact: columns.map((_, i) => exact[i] ?? null),
    spans,
    events,
    warnings: raw.warnings ?? [],
    files: raw.files ?? [],
    ...(raw.paged ? { paged: true, spanNames: raw.spanNames ?? [], eventNames: raw.eventNames ?? [] } : {}),
    zero,
  };
}

/** The cell's value: a number, a string, or null for "-". */
export function cellValue(t: DecodedResult, row: number, col: number): CellValue {
  const a = t.cells[col];
  const v = a[row];
  if (t.columns[col].kind === 'Text') {
    if (v === MISSING_TEXT || v >= t.texts.length) return null;
    return t.texts[v];
  }
  if (Number.isNaN(v)) return null;
  return t.exact[col]?.[row] ?? v;
}

/** A number as its column shows it (without the group separators when `separators` is false). */
export function formatNumber(c: ResultColumn, v: number | bigint, separators = true): string {
  if (typeof v === 'bigint') return c.grouped ? formatInt(v, separators) : String(v);
  if (!Number.isFinite(v)) return '-';
  if (c.kind === 'Decimal1') return c.grouped ? formatDecimal1(v, separators) : v.toFixed(1);
  return c.grouped ? formatInt(v, separators) : String(Math.trunc(v));
}

/** A number of column `col` as the table shows it: a time point as ns since the result's zero (exported cells stay absolute). */
export function displayNumber(t: Pick<DecodedResult, 'columns' | 'zero'>, col: number, v: number | bigint, separators = true): string {
  const c = t.columns[col];
  if (c.timePoint && t.zero !== null && (typeof v === 'bigint' || Number.isFinite(v))) v = cellSinceZero(v, t.zero);
  return formatNumber(c, v, separators);
}

/** The cell as the table shows it. */
export function cellDisplay(t: DecodedResult, row: number, col: number): string {
  const v = cellValue(t, row, col);
  if (v === null) return '-';
  if (typeof v === 'string') return displayApiName(v);
  return displayNumber(t, col, v);
}

/** The columns a result shows from its time zero, as the engine's search of a paged result takes them (null: none). */
export function shownTimesOf(t: Pick<DecodedResult, 'columns' | 'zero'>): ShownTimes | null {
  const columns = t.columns.flatMap((c, i) => (c.timePoint ? [i] : []));
  return t.zero === null || columns.length === 0 ? null : { zero: String(t.zero), columns };
}

/** A time point cell's absolute time (ns on the report's clock, exact), what its hover shows; null for other cells and "-". */
export function cellAbsolute(t: DecodedResult, row: number, col: number): bigint | null {
  if (!t.columns[col].timePoint || t.zero === null) return null;
  const v = cellValue(t, row, col);
  return typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(Math.trunc(v)) : null;
}

/** The cell as a plain key (pie slices, filters): text as is, numbers ungrouped. */
export function cellKey(t: DecodedResult, row: number, col: number): string {
  const v = cellValue(t, row, col);
  if (v === null) return '-';
  if (typeof v === 'string') return v;
  return t.columns[col].kind === 'Decimal1' && typeof v === 'number' ? v.toFixed(1) : String(v);
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

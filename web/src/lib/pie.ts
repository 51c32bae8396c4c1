// The pie chart's data: the rule's value column summed per distinct value of
// the chosen key column (or the rows counted per value), largest first, the
// top N slices plus "Other".
import { cellKey, findColumn, MISSING_TEXT, type DecodedResult } from './result';

export interface PieEntry {
  key: string;
  value: number;
}

export interface PieSlice {
  name: string;
  value: number;
  /** The keys the slice stands for: one, or all of "Other"'s. */
  keys: string[];
  other: boolean;
}

export const OTHER_LABEL = 'Other';

/** Sums column `valueCol` (COUNT_ROWS: counts rows) per key of `keyCol` over `rows` (all rows if omitted); largest first, ties by key. */
export function sumByKey(t: DecodedResult, valueCol: number, keyCol: number, rows?: ArrayLike<number>): PieEntry[] {
  return sortEntries(aggregate(t, valueCol, keyCol, rows));
}

/** The value "column" of a chart that counts rows (not -1, which findColumn returns for "none"). */
export const COUNT_ROWS = -2;

/** sumByKey without the sort. */
function aggregate(t: DecodedResult, valueCol: number, keyCol: number, rows?: ArrayLike<number>): PieEntry[] {
  const count = valueCol === COUNT_ROWS;
  const values = count ? new Float64Array(t.rowCount).fill(1) : t.cells[valueCol];
  const valueIsText = !count && t.columns[valueCol].kind === 'Text';
  const n = rows ? rows.length : t.rowCount;
  const entries: PieEntry[] = [];
  if (t.columns[keyCol].kind === 'Text') {
    // Sum per pool index first: no string work per row.
    const keys = t.cells[keyCol];
    const sums = new Float64Array(t.texts.length);
    const seen = new Uint8Array(t.texts.length);
    let missingSum = 0;
    let missingSeen = false;
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i] : i;
      const v = values[r];
      const add = valueIsText || Number.isNaN(v) ? 0 : v;
      const k = keys[r];
      if (k === MISSING_TEXT || k >= sums.length) {
        missingSum += add;
        missingSeen = true;
      } else {
        sums[k] += add;
        seen[k] = 1;
      }
    }
    // The pool holds each distinct text once, so a pool index is a key.
    for (let k = 0; k < sums.length; k++) if (seen[k]) entries.push({ key: t.texts[k], value: sums[k] });
    if (missingSeen) {
      const dash = entries.find((e) => e.key === '-');
      if (dash) dash.value += missingSum;
      else entries.push({ key: '-', value: missingSum });
    }
  } else {
    const sums = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i] : i;
      const v = values[r];
      const add = valueIsText || Number.isNaN(v) ? 0 : v;
      const key = cellKey(t, r, keyCol);
      sums.set(key, (sums.get(key) ?? 0) + add);
    }
    for (const [key, value] of sums) entries.push({ key, value });
  }
  return entries;
}

function compareEntries(a: PieEntry, b: PieEntry): number {
  return b.value - a.value || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function sortEntries(entries: PieEntry[]): PieEntry[] {
  return entries.sort(compareEntries);
}

// Past this many keys "Other"'s own keys are left unsorted (only a tooltip lists them).
const SORT_REST_LIMIT = 10000;

/**
 * The top `n` entries as slices, and the rest summed into one "Other" slice
 * (when there is a rest). The result is sorted descending, "Other" placed by
 * its value like any slice. `entries` may come in any order; a million keys
 * are fine (the top is selected, not sorted out of everything).
 */
export function topSlices(entries: PieEntry[], n: number): PieSlice[] {
  const limit = Math.max(1, Math.floor(n));
  const slice = (e: PieEntry): PieSlice => ({ name: e.key, value: e.value, keys: [e.key], other: false });
  if (entries.length <= limit) return sortEntries(entries.slice()).map(slice);
  // The best `limit` entries, kept sorted in a small buffer.
  const top: PieEntry[] = [];
  for (const e of entries) {
    if (top.length === limit && compareEntries(e, top[limit - 1]) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareEntries(top[mid], e) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, e);
    if (top.length > limit) top.pop();
  }
  const chosen = new Set(top);
  const rest = entries.filter((e) => !chosen.has(e));
  if (rest.length <= SORT_REST_LIMIT) sortEntries(rest);
  const slices = top.map(slice);
  // A key literally named "Other" keeps its name; the rest slice gets a distinct one.
  let otherName = OTHER_LABEL;
  while (slices.some((s) => s.name === otherName)) otherName += ' ';
  let restSum = 0;
  for (const e of rest) restSum += e.value;
  slices.push({ name: otherName, value: restSum, keys: rest.map((e) => e.key), other: true });
  return slices.sort((a, b) => b.value - a.value || Number(a.other) - Number(b.other));
}

export interface PieModel {
  valueCol: number;
  keyCol: number;
  slices: PieSlice[];
  total: number;
}

/** Everything the chart needs, or null when the columns are not in the result; `valueColumn` null counts rows. */
export function pieModel(
  t: DecodedResult,
  valueColumn: string | null,
  keyColumn: string,
  topN: number,
): PieModel | null {
  const valueCol = valueColumn === null ? COUNT_ROWS : findColumn(t, valueColumn);
  const keyCol = findColumn(t, keyColumn);
  if (keyCol < 0 || (valueCol !== COUNT_ROWS && (valueCol < 0 || !t.columns[valueCol].numeric))) return null;
  const slices = topSlices(aggregate(t, valueCol, keyCol), topN);
  return { valueCol, keyCol, slices, total: slices.reduce((s, x) => s + x.value, 0) };
}

/** Row indices whose key cell is one of `keys`, in engine order. */
export function filterRowsByKeys(t: DecodedResult, keyCol: number, keys: string[]): Uint32Array {
  const want = new Set(keys);
  const out: number[] = [];
  if (t.columns[keyCol].kind === 'Text') {
    const mask = new Uint8Array(t.texts.length);
    for (let k = 0; k < t.texts.length; k++) if (want.has(t.texts[k])) mask[k] = 1;
    const wantMissing = want.has('-');
    const cells = t.cells[keyCol];
    for (let r = 0; r < t.rowCount; r++) {
      const k = cells[r];
      if (k === MISSING_TEXT || k >= mask.length ? wantMissing : mask[k]) out.push(r);
    }
  } else {
    for (let r = 0; r < t.rowCount; r++) if (want.has(cellKey(t, r, keyCol))) out.push(r);
  }
  return Uint32Array.from(out);
}

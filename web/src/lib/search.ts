// The table's search box: plain text, case-insensitive, over the cells as the
// table shows them (numbers with their group separators ignored, so "1234"
// finds "1 234"; "-" cells are the text "-"; the Row# position column is not
// searched). Built for a million rows: each text is lowercased once per
// result and the pool is searched once per query, so a text column costs one
// table lookup per row; a number column's displays are made once, joined
// into one string, the first time a query could match a number (one with
// digits only), and searched with indexOf. A query allocates one byte per row.
import { displayNumber, MISSING_TEXT, type DecodedResult } from './result';

export type SearchMode = 'search' | 'filter';

/** Entries joined by NUL (never in a cell's text), and where each one starts. */
interface Haystack {
  text: string;
  starts: Uint32Array; // entry k is text[starts[k], starts[k + 1] - 1)
}

function haystack(entries: string[]): Haystack {
  const starts = new Uint32Array(entries.length + 1);
  let at = 0;
  for (let k = 0; k < entries.length; k++) {
    starts[k] = at;
    at += entries[k].length + 1;
  }
  starts[entries.length] = at;
  return { text: entries.join('\0'), starts };
}

/** Calls `hit(k)` once for each entry containing `q` (no NUL in `q`). */
function forEachHit(h: Haystack, q: string, hit: (k: number) => void): void {
  let k = 0;
  for (let pos = h.text.indexOf(q); pos >= 0; ) {
    while (h.starts[k + 1] <= pos) k++;
    hit(k);
    pos = h.text.indexOf(q, h.starts[k + 1]);
  }
}

/** Group separators and spaces: ignored when a query is compared with numbers. */
const SEPARATORS = /\s/g;
/** What a number's display can hold besides separators (exponents above 1e21). */
const NUMBER_CHARS = /^[-+0-9.e]+$/;

export class SearchIndex {
  private texts: Haystack | null = null;
  private readonly numbers = new Map<number, Haystack>();

  constructor(readonly result: DecodedResult) {}

  /**
   * The rows with a cell containing `query` (one byte per row, 1 = match),
   * or null for a blank query (no search).
   */
  match(query: string): Uint8Array | null {
    const q = query.trim().toLowerCase();
    if (q === '') return null;
    const t = this.result;
    const mask = new Uint8Array(t.rowCount);
    if (q.includes('\0')) return mask;
    const dash = '-'.includes(q);
    const textCols = t.columns.flatMap((c, i) => (c.numeric ? [] : [i]));
    if (textCols.length > 0) {
      const hits = new Uint8Array(t.texts.length);
      forEachHit(this.textHaystack(), q, (k) => (hits[k] = 1));
      for (const c of textCols) {
        const cells = t.cells[c];
        for (let r = 0; r < t.rowCount; r++) {
          const v = cells[r];
          if (v === MISSING_TEXT || v >= hits.length ? dash : hits[v] === 1) mask[r] = 1;
        }
      }
    }
    const qn = q.replace(SEPARATORS, '');
    if (NUMBER_CHARS.test(qn)) {
      t.columns.forEach((c, i) => {
        if (c.numeric) forEachHit(this.numberHaystack(i), qn, (r) => (mask[r] = 1));
      });
    }
    return mask;
  }

  private textHaystack(): Haystack {
    this.texts ??= haystack(this.result.texts.map((s) => s.toLowerCase()));
    return this.texts;
  }

  private numberHaystack(col: number): Haystack {
    let h = this.numbers.get(col);
    if (!h) {
      const t = this.result;
      const cells = t.cells[col];
      const exact = t.exact[col];
      const shown = new Array<string>(t.rowCount);
      for (let r = 0; r < t.rowCount; r++) {
        const v = cells[r];
        shown[r] = Number.isNaN(v) ? '-' : displayNumber(t, col, exact?.[r] ?? v, false);
      }
      h = haystack(shown);
      this.numbers.set(col, h);
    }
    return h;
  }
}

/** The positions in `order` whose rows match: the search mode's matches, in table order. */
export function matchPositions(order: Uint32Array, mask: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < order.length; i++) n += mask[order[i]];
  const out = new Uint32Array(n);
  for (let i = 0, j = 0; i < order.length; i++) if (mask[order[i]] === 1) out[j++] = i;
  return out;
}

/** `order` keeping the matching rows: the filter mode's table. */
export function filterOrder(order: Uint32Array, mask: Uint8Array): Uint32Array {
  return order.filter((r) => mask[r] === 1);
}

/** The match after (`step` 1) or before (-1) `current`, wrapping around; -1 without matches. */
export function stepMatch(current: number, count: number, step: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return step === 1 ? 0 : count - 1;
  return (current + step + count) % count;
}

// A paged result's rows as the table has asked for them: the engine keeps a
// result of more than PAGED_ROWS rows (a ten-million-row trace) and answers
// the rows in view, a page at a time (pageRows); this cache holds the pages
// lately shown, so scrolling back is instant and the tab holds a few
// thousand rows, not the result.
import { cellAbsolute, cellDisplay, type DecodedResult } from './result';
import type { EventRow } from '../engine/types';
import { eventAt } from './event_links';

/** Results up to this many rows are answered whole; larger ones are paged. */
export const PAGED_ROWS = 1_000_000;

/** The row limit in force: PAGED_ROWS, or `?pagedRows=N` in the address (tests page small results). */
export function pagedRowsLimit(search: string = typeof location === 'undefined' ? '' : location.search): number {
  const text = new URLSearchParams(search).get('pagedRows');
  const v = text === null || text.trim() === '' ? NaN : Number(text);
  return Number.isInteger(v) && v >= 0 ? v : PAGED_ROWS;
}

/** Rows asked for beyond the ones in view, above and below, so a short scroll finds them. */
export const PAGE_MARGIN = 64;

/** How many rows the cache keeps before it forgets the oldest pages. */
const CACHE_ROWS = 20_000;

interface Entry {
  page: DecodedResult;
  at: number;
}

export class PageCache {
  private readonly rows = new Map<number, Entry>();

  /** The rows of `wanted` not in the cache, in the order given. */
  missing(wanted: ArrayLike<number>): Uint32Array {
    const out: number[] = [];
    for (let i = 0; i < wanted.length; i++) if (!this.rows.has(wanted[i])) out.push(wanted[i]);
    return Uint32Array.from(out);
  }

  /** A page's rows: `rows[i]` is row i of `page`. */
  add(rows: ArrayLike<number>, page: DecodedResult): void {
    if (this.rows.size + rows.length > CACHE_ROWS) this.rows.clear();
    for (let i = 0; i < rows.length; i++) this.rows.set(rows[i], { page, at: i });
  }

  has(row: number): boolean {
    return this.rows.has(row);
  }

  /** The cell as the table shows it, or null while its page is on its way. */
  display(row: number, col: number): string | null {
    const e = this.rows.get(row);
    return e ? cellDisplay(e.page, e.at, col) : null;
  }

  /** Row `row`'s event `which` (its report table and row), or null when it has none or is not here. */
  event(row: number, which: number): EventRow | null {
    const e = this.rows.get(row);
    return e ? eventAt(e.page, e.at, which) : null;
  }

  /** A time cell's absolute ns (its hover), or null (another cell, "-", or not here). */
  absolute(row: number, col: number): bigint | null {
    const e = this.rows.get(row);
    return e ? cellAbsolute(e.page, e.at, col) : null;
  }

  /** Row `row`'s span `span` as [start, end], or null when it has none or is not here. */
  span(row: number, span: number): [bigint, bigint] | null {
    const e = this.rows.get(row);
    const s = e?.page.spans[span];
    if (!e || !s) return null;
    const start = s.start[e.at];
    const end = s.end[e.at];
    const none = -(2n ** 63n);
    return start === none || end === none ? null : [start, end];
  }
}

// The rows of a paged result as the table scrolls: the first rows at once,
// then whatever comes into view, one request at a time: the rows in view
// first, the margin around them next (rows of a sorted order lie anywhere in
// the report, and each costs a read), and the latest wanted rows win over
// the ones scrolled past while a page was on its way.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PageCache } from '../lib/paged';
import type { PagedEngine } from '../lib/paged_queries';
import type { EventRow } from '../engine/types';
import { decodeResult, type DecodedResult } from '../lib/result';
import { message } from './errors';

/** The rows asked for first: a screen and more, before the table knows its height. */
const FIRST_ROWS = 128;

export interface PagedRows {
  /** The cell as shown, null while its page is on its way; undefined for a result that is not paged. */
  cell?: (row: number, col: number) => string | null;
  /** The table's rows in view, then a margin around them: fetched in that order when not here. */
  onRowsShown?: (visible: Uint32Array, around?: Uint32Array) => void;
  /** The first rows' page (what the columns' widths are measured on); null until it is here. */
  firstPage: DecodedResult | null;
  /** A time cell's absolute ns when its page is here (its hover); undefined for a result that is not paged. */
  absolute?: (row: number, col: number) => bigint | null;
  /** Row `row`'s span `span` as [start, end] when its page is here and it has one. */
  span: (row: number, span: number) => [bigint, bigint] | null;
  /** Row `row`'s event `which` when its page is here and it has one. */
  event: (row: number, which: number) => EventRow | null;
  /** Why a page could not be read, else null. */
  error: string | null;
}

export function usePagedRows(result: DecodedResult, engine: PagedEngine | undefined): PagedRows {
  const paged = !!result.paged && !!engine;
  const cache = useMemo(() => new PageCache(), [result]);
  const [version, setVersion] = useState(0);
  const [firstPage, setFirstPage] = useState<DecodedResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = useRef(false);
  // The rows to fetch next, first first: the rows in view, then the margin
  // around them. A scroll replaces what was still to come.
  const queue = useRef<Uint32Array[]>([]);

  const pump = useCallback(
    function pump() {
      if (!paged || !engine || busy.current) return;
      while (queue.current.length > 0) {
        const missing = cache.missing(queue.current.shift()!);
        if (missing.length === 0) continue;
        busy.current = true;
        engine
          .pageRows(missing)
          .then(
            (raw) => {
              const page = decodeResult(raw, result.zero);
              cache.add(missing, page);
              setFirstPage((p) => p ?? page);
              setVersion((v) => v + 1);
            },
            (e) => setError(message(e)),
          )
          .finally(() => {
            busy.current = false;
            pump();
          });
        return;
      }
    },
    [paged, engine, cache],
  );
  const fetchRows = useCallback(
    (visible: Uint32Array, around?: Uint32Array) => {
      queue.current = around ? [visible, around] : [visible];
      pump();
    },
    [pump],
  );

  useEffect(() => {
    if (!paged) return;
    const first = new Uint32Array(Math.min(FIRST_ROWS, result.rowCount));
    for (let i = 0; i < first.length; i++) first[i] = i;
    fetchRows(first);
  }, [paged, result, fetchRows]);

  // A new function whenever a page arrives, so the table draws the rows it brought.
  const cell = useMemo(
    () => (row: number, col: number) => cache.display(row, col),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [cache, version],
  );
  const span = useCallback((row: number, which: number) => cache.span(row, which), [cache]);
  const event = useCallback((row: number, which: number) => cache.event(row, which), [cache]);
  const absolute = useMemo(
    () => (row: number, col: number) => cache.absolute(row, col),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [cache, version],
  );
  return paged
    ? { cell, absolute, onRowsShown: fetchRows, firstPage, span, event, error }
    : { firstPage: null, span, event, error: null };
}

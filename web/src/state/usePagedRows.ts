// The rows of a paged result as the table scrolls: the first rows at once,
// then whatever comes into view, one request at a time (the latest wanted
// rows win over the ones scrolled past while a page was on its way).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PageCache } from '../lib/paged';
import type { PagedEngine } from '../lib/paged_queries';
import { decodeResult, type DecodedResult } from '../lib/result';
import { message } from './errors';

/** The rows asked for first: a screen and more, before the table knows its height. */
const FIRST_ROWS = 128;

export interface PagedRows {
  /** The cell as shown, null while its page is on its way; undefined for a result that is not paged. */
  cell?: (row: number, col: number) => string | null;
  /** The table's rows in view (and a margin): fetched when not here. */
  onRowsShown?: (rows: Uint32Array) => void;
  /** The first rows' page (what the columns' widths are measured on); null until it is here. */
  firstPage: DecodedResult | null;
  /** Row `row`'s span `span` as [start, end] when its page is here and it has one. */
  span: (row: number, span: number) => [bigint, bigint] | null;
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
  const wanted = useRef<Uint32Array | null>(null);

  const fetchRows = useCallback(
    function fetchRows(rows: Uint32Array) {
      if (!paged || !engine) return;
      if (busy.current) {
        wanted.current = rows;
        return;
      }
      const missing = cache.missing(rows);
      if (missing.length === 0) return;
      busy.current = true;
      engine
        .pageRows(missing)
        .then(
          (raw) => {
            const page = decodeResult(raw);
            cache.add(missing, page);
            setFirstPage((p) => p ?? page);
            setVersion((v) => v + 1);
          },
          (e) => setError(message(e)),
        )
        .finally(() => {
          busy.current = false;
          const next = wanted.current;
          wanted.current = null;
          if (next) fetchRows(next);
        });
    },
    [paged, engine, cache],
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
  return paged
    ? { cell, onRowsShown: fetchRows, firstPage, span, error }
    : { firstPage: null, span, error: null };
}

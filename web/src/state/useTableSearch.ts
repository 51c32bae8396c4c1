// The search box's state over one result table: the text as typed, the query
// applied after a pause for typing, the mode, and what the table shows:
// "search" keeps every row and walks the matches (the current one scrolled to
// and highlighted), "filter" keeps the matching rows only.
import { useEffect, useMemo, useState } from 'react';
import type { DecodedResult } from '../lib/result';
import { identityKey, useAnswer } from './useAnswer';
import { filterOrder, matchPositions, SearchIndex, stepMatch, type SearchMode } from '../lib/search';

/** A pause long enough for a word typed at speed; a million rows take tens of ms a query. */
const DEBOUNCE_MS = 200;

export interface TableSearch {
  text: string;
  setText: (text: string) => void;
  mode: SearchMode;
  setMode: (mode: SearchMode) => void;
  /** The rows shown: `order`, or its matches in filter mode. */
  order: Uint32Array;
  /** One byte per result row, 1 = match; null without a query. */
  mask: Uint8Array | null;
  /** Search mode: the number of matches, the current one (-1: none) and where it is. */
  count: number;
  current: number;
  /** The current match's row and its position in `order`; a new object whenever the table should scroll to it. */
  currentMatch: { row: number; at: number; seq: number } | null;
  step: (step: 1 | -1) => void;
  /** Why the engine could not answer the query (a paged result's search), else null. */
  error: string | null;
}

/**
 * `engineMatch`: a paged result's search, answered by the engine (its cells
 * are not here); without it the rows are searched here (lib/search.ts).
 */
export function useTableSearch(
  result: DecodedResult,
  order: Uint32Array,
  engineMatch?: (query: string, still: () => boolean) => Promise<Uint8Array | null>,
): TableSearch {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<SearchMode>('search');
  useEffect(() => {
    // Clearing the box applies at once; typing waits.
    const timer = setTimeout(() => setQuery(text), text.trim() === '' ? 0 : DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const index = useMemo(() => new SearchIndex(result), [result]);
  const here = useMemo(() => (engineMatch ? null : index.match(query)), [engineMatch, index, query]);
  // The engine's answer, kept with the query it answers (a later query drops an earlier answer).
  const asked = engineMatch && query.trim() !== '' ? `${identityKey(engineMatch)}|${query}` : null;
  const answered = useAnswer(asked, (still) => engineMatch!(query, still));
  const mask = engineMatch ? answered.value : here;
  const positions = useMemo(
    () => (mask && mode === 'search' ? matchPositions(order, mask) : null),
    [mask, mode, order],
  );
  const shown = useMemo(() => (mask && mode === 'filter' ? filterOrder(order, mask) : order), [mask, mode, order]);

  // The current match: the first one for each new list of matches (query or
  // order); every step and every new list is a new `currentMatch`, which the
  // table scrolls to.
  const [cursor, setCursor] = useState<{ of: Uint32Array | null; current: number }>({ of: null, current: -1 });
  const count = positions?.length ?? 0;
  const current = cursor.of === positions ? cursor.current : count > 0 ? 0 : -1;
  const at = current >= 0 ? positions![current] : -1;
  const [seq, setSeq] = useState(0);
  const currentMatch = useMemo(
    () => (at >= 0 ? { row: order[at], at, seq } : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [at, order, seq, positions],
  );
  const step = (s: 1 | -1) => {
    setCursor({ of: positions, current: stepMatch(current, count, s) });
    setSeq((n) => n + 1);
  };

  const error = engineMatch ? answered.error : null;
  return { text, setText, mode, setMode, order: shown, mask, count, current, currentMatch, step, error };
}

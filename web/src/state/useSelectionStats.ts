// A drag selection's statistics from the engine (timelineSelection): the
// PPUs' active, idle, kernel and memory times and its events grouped by kind
// and name as a result the engine keeps, shown and exported as any rule's
// table. Asked again whenever the selection changes (after a short pause, so
// a drag in progress asks nothing); an answer to an older selection is
// dropped and its result released, and the result shown is released when
// another replaces it, the selection is cleared or the view goes.
import { useEffect, useRef, useState } from 'react';
import type { SelectionStats } from '../engine/timeline_types';
import { pagedRowsLimit } from '../lib/paged';
import { decodeResult, type DecodedResult } from '../lib/result';
import { useEngine } from './engine';
import { message } from './errors';

export interface SelectionStatsState {
  /** The window these figures are of (absolute ns), or null before the first answer. */
  stats: SelectionStats | null;
  /** The grouped events, decoded (their time columns none: Total, Avg ... are durations). */
  result: DecodedResult | null;
  /** The engine's id of the grouped table: sort, page and export it by this id. */
  resultId: number | null;
  /** An answer for the current selection is on its way. */
  loading: boolean;
  error: string | null;
}

const NONE: SelectionStatsState = { stats: null, result: null, resultId: null, loading: false, error: null };

/** What the hook keeps: the state, and the selection (its key) the state answers. */
interface Kept {
  key: string;
  state: SelectionStatsState;
}

/** `window`: the selection [from, to) in absolute ns (null: none). */
export function useSelectionStats(reportId: number, window: [bigint, bigint] | null): SelectionStatsState {
  const { client } = useEngine();
  const [kept, setKept] = useState<Kept>({ key: '', state: NONE });
  const key = window && window[1] > window[0] ? `${reportId}|${window[0]}|${window[1]}` : '';
  const latest = useRef('');
  latest.current = key;

  useEffect(() => {
    if (!window || key === '') {
      setKept({ key: '', state: NONE });
      return;
    }
    const [from, to] = window;
    const timer = setTimeout(async () => {
      try {
        const answer = await client.timelineSelection(reportId, from, to, pagedRowsLimit());
        const id = answer.result.resultId ?? null;
        if (latest.current !== key) {
          if (id !== null) void client.release(id).catch(() => {});
          return;
        }
        const state = { stats: answer.stats, result: decodeResult(answer.result), resultId: id, loading: false, error: null };
        setKept({ key, state });
      } catch (e) {
        if (latest.current === key) setKept({ key, state: { ...NONE, error: message(e) } });
      }
    }, 150);
    return () => clearTimeout(timer);
    // The key holds the window's values (a new array of the same window asks nothing).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, client]);

  // The grouped table shown before is of no more use to the engine.
  const shown = kept.state.resultId;
  useEffect(() => {
    if (shown === null) return;
    return () => void client.release(shown).catch(() => {});
  }, [shown, client]);

  // Loading from the first render of a new selection on (the figures shown are the last one's until then).
  return key !== '' && kept.key !== key ? { ...kept.state, loading: true, error: null } : kept.state;
}

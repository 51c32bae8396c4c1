// The rows' busy shares inside the report's statistics range (the manual:
// "recomputed after filtering"): asked of the engine (timelineShares) when
// the range changes; none without a range (the tracks carry the whole
// capture's). An answer to an older range is dropped.
import { useEffect, useRef, useState } from 'react';
import type { TimelineInfo, TimelineShares } from '../engine/timeline_types';
import type { TimeWindow } from '../engine/types';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

/** The span the shares are of: the range, an open side the events' first or last ns. */
export function sharesSpan(info: TimelineInfo, range: TimeWindow | null): [bigint, bigint] | null {
  if (!range || (range[0] === null && range[1] === null)) return null;
  const from = range[0] ?? info.first;
  const to = range[1] ?? info.last + 1n;
  return to > from ? [from, to] : null;
}

export function useTimelineShares(reportId: number, info: TimelineInfo | null, range: TimeWindow | null): TimelineShares | null {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [kept, setKept] = useState<{ key: string; shares: TimelineShares } | null>(null);
  const span = info ? sharesSpan(info, range) : null;
  // Rows by base name added later are asked again (the answer has a share per track).
  const key = span && info ? `${reportId}|${span[0]}|${span[1]}|${info.tracks.length}` : '';
  const latest = useRef('');
  latest.current = key;
  useEffect(() => {
    if (!span) return;
    client
      .timelineShares(reportId, span[0], span[1])
      .then((shares) => latest.current === key && setKept({ key, shares }))
      .catch((e) => latest.current === key && pushError(message(e)));
    // `key` names the span.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, reportId, key, pushError]);
  return kept && kept.key === key ? kept.shares : null;
}

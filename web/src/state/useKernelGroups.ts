// "Show kernels grouped by: base name" (Nsight Systems): the rows of a
// stream's kernels by base name, asked of the engine for the rows near the
// view only (timelineKernelGroups builds and keeps them), then the tracks
// again (timelineTracks lists them after the others, each with its parent).
// Off, the tracks as they came.
import { useEffect, useRef, useState } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { mayGroupKernels } from '../lib/timeline';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

export function useKernelGroups(reportId: number, info: TimelineInfo | null, on: boolean, wanted: number[]): TimelineInfo | null {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [grouped, setGrouped] = useState<TimelineInfo | null>(null);
  const asked = useRef(new Set<number>());
  const current = grouped ?? info;
  const ask = on && current ? wanted.filter((id) => !asked.current.has(id) && mayGroupKernels(current.tracks[id])) : [];
  const key = ask.join(',');
  // An answer is kept unless the view went: the next render asks for nothing
  // (its rows are asked), which must not drop the answer on its way.
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    if (ask.length === 0) return;
    for (const id of ask) asked.current.add(id);
    client
      .timelineKernelGroups(reportId, ask)
      .then((r) => (r.added > 0 ? client.timelineTracks(reportId) : null))
      // Answers of two asks may cross: the one with more rows is the newer.
      .then((t) => t && mounted.current && setGrouped((prev) => (prev && prev.tracks.length > t.tracks.length ? prev : t)))
      .catch((e) => {
        // Asked again once the row comes back into view.
        for (const id of ask) asked.current.delete(id);
        pushError(message(e));
      });
    // `key` names the rows asked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, reportId, key, pushError]);
  return on ? current : info;
}

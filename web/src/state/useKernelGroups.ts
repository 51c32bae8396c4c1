// "Show kernels grouped by: base name / HGTX range" (Nsight Systems): the
// rows of a stream's kernels by base name or by their innermost HGTX range,
// asked of the engine for the rows near the view only (timelineKernelGroups
// and timelineKernelRangeGroups build and keep them), then the tracks again
// (timelineTracks lists them after the others, each with its parent and
// grouping). Off, the tracks as they came.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { groupingRefused, type KernelGrouping } from '../lib/kernel_grouping';
import { mayGroupKernels } from '../lib/timeline';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

// The grouping chosen, per report, kept across view switches (as the
// window is): a spotlit event on a row of it stays on a row shown.
const chosen = new Map<number, KernelGrouping>();

/** The report's "Show kernels grouped by" and its setter (kept while the page lives). */
export function useKernelGrouping(reportId: number): [KernelGrouping, (g: KernelGrouping) => void] {
  const [grouping, setGrouping] = useState<KernelGrouping>(() => chosen.get(reportId) ?? 'none');
  const set = useCallback(
    (g: KernelGrouping) => {
      chosen.set(reportId, g);
      setGrouping(g);
    },
    [reportId],
  );
  return [grouping, set];
}

export function useKernelGroups(reportId: number, info: TimelineInfo | null, grouping: KernelGrouping, wanted: number[]): TimelineInfo | null {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [grouped, setGrouped] = useState<TimelineInfo | null>(null);
  // The rows asked for, per grouping (each grouping's rows are built apart).
  const asked = useRef(new Map<KernelGrouping, Set<number>>());
  const current = grouped ?? info;
  const on = grouping !== 'none' && !groupingRefused(current, grouping);
  const askedOf = (g: KernelGrouping) => {
    let s = asked.current.get(g);
    if (!s) asked.current.set(g, (s = new Set()));
    return s;
  };
  const ask = on && current ? wanted.filter((id) => !askedOf(grouping).has(id) && mayGroupKernels(current.tracks[id])) : [];
  const key = `${grouping}:${ask.join(',')}`;
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
    const mine = askedOf(grouping);
    for (const id of ask) mine.add(id);
    const build = grouping === 'hgtxRange' ? client.timelineKernelRangeGroups(reportId, ask) : client.timelineKernelGroups(reportId, ask);
    build
      // The tracks again even when this ask made none: the engine keeps the
      // rows it built before this view was mounted (a view switch), which
      // the tracks this view started from do not list.
      .then(() => client.timelineTracks(reportId))
      // Answers of two asks may cross: the one with more rows is the newer.
      .then((t) => t && mounted.current && setGrouped((prev) => (prev && prev.tracks.length > t.tracks.length ? prev : t)))
      .catch((e) => {
        // Asked again once the row comes back into view.
        for (const id of ask) mine.delete(id);
        pushError(message(e));
      });
    // `key` names the grouping and the rows asked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, reportId, key, pushError]);
  return grouping !== 'none' ? current : info;
}

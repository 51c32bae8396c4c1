// The merged slices of the window in view, from the engine: asked again (a
// frame later, so a burst of wheel events asks once) when the window, the
// plot's width or the tracks near the view change; a newer ask wins over an
// answer on its way. Frame marks for bench/timeline-frames.mjs.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TimelineInfo, TimelineWindowSlices } from '../engine/timeline_types';
import { frameDuration, frameMark, frameMeasure } from '../lib/frame_marks';
import type { Viewport } from '../lib/timeline';
import { useEngine } from './engine';
import { message, useErrors } from './errors';

export interface TimelineSlices {
  slices: TimelineWindowSlices | null;
  /** The slices shown are those of the tracks asked for now (`wanted.key`). */
  rowsReady: boolean;
  fetching: boolean;
  /** The plot's width in px, which the slices are merged for. */
  onWidth: (px: number) => void;
}

export function useTimelineSlices(
  reportId: number,
  info: TimelineInfo | null,
  viewport: Viewport | null,
  /** The tracks near the view (lib/timeline tracksToFetch): `key` changes only when `ids` do. */
  wanted: { ids: number[]; key: string },
): TimelineSlices {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [width, setWidth] = useState(0);
  const [slices, setSlices] = useState<TimelineWindowSlices | null>(null);
  // The tracks those slices were asked for (tracksToFetch's key).
  const [slicesKey, setSlicesKey] = useState('');
  const [fetching, setFetching] = useState(false);
  const wantedIds = useRef(wanted.ids);
  wantedIds.current = wanted.ids;
  const origin = info?.first ?? 0n;

  const seq = useRef(0);
  const shownSeq = useRef(0); // the request whose slices are shown (for the frame marks)
  useEffect(() => {
    if (!info || !viewport || width <= 0 || info.tracks.length === 0) return;
    const mine = ++seq.current;
    const key = wanted.key;
    const from = origin + BigInt(Math.floor(viewport.from));
    const to = origin + BigInt(Math.ceil(viewport.to));
    setFetching(true);
    const timer = setTimeout(() => {
      const asked = performance.now();
      client
        .timelineWindow(reportId, from, to, Math.round(width), wantedIds.current)
        .then((w) => {
          frameMeasure('asys:tl-query', asked, { seq: mine });
          if (w.workerMs !== undefined) frameDuration('asys:tl-worker', w.workerMs, { seq: mine });
          if (mine === seq.current) {
            shownSeq.current = mine;
            setSlices(w);
            setSlicesKey(key);
          }
        })
        .catch((e) => pushError(message(e)))
        .finally(() => mine === seq.current && setFetching(false));
    }, 16);
    return () => clearTimeout(timer);
  }, [client, reportId, info, viewport, width, origin, pushError, wanted.key]);

  // After the canvas drew a window's slices (a child's effects run before its parent's).
  useEffect(() => {
    if (slices) frameMark('asys:tl-frame', { seq: shownSeq.current });
  }, [slices]);

  const onWidth = useCallback((px: number) => setWidth(px), []);
  return { slices, rowsReady: slices !== null && slicesKey === wanted.key, fetching, onWidth };
}

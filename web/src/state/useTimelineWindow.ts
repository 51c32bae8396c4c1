// The time window the timeline shows, as ns offsets from the events' first
// (lib/timeline's Viewport): the whole capture until something zooms or
// pans, and published to the view state for the permalink while shown.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { clampViewport, type Viewport } from '../lib/timeline';
import { useView } from './view';

export interface TimelineWindow {
  /** Null until the tracks are in. */
  viewport: Viewport | null;
  /** The events' first time, absolute ns: the offsets' origin. */
  origin: bigint;
  /** The events' extent from the origin, ns. */
  extent: number;
  /** A window as it is (the canvas's zoom and pan keep theirs inside the events). */
  setViewport: (v: Viewport) => void;
  /** [from, to] kept inside the events and at least MIN_SPAN wide. */
  zoomTo: (from: number, to: number) => void;
  showWhole: () => void;
}

const whole = (extent: number): Viewport => ({ from: 0, to: Math.max(1, extent) });

export function useTimelineWindow(reportId: number, info: TimelineInfo | null): TimelineWindow {
  const { setShownWindow } = useView();
  // What zoom and pan chose; null: the whole capture.
  const [chosen, setChosen] = useState<Viewport | null>(null);
  const origin = info?.first ?? 0n;
  const extent = info ? Number(info.last - info.first) : 1;
  // One object while nothing changes: the canvas paints and the slices are asked for again when it does.
  const viewport = useMemo(() => (info ? (chosen ?? whole(extent)) : null), [info, chosen, extent]);
  const zoomTo = useCallback((from: number, to: number) => setChosen(clampViewport({ from, to }, extent)), [extent]);
  const showWhole = useCallback(() => setChosen(whole(extent)), [extent]);

  // The window shown, for the permalink (exact ns; offsets rounded outwards).
  useEffect(() => {
    if (!viewport) return;
    setShownWindow({ report: reportId, start: origin + BigInt(Math.floor(viewport.from)), end: origin + BigInt(Math.ceil(viewport.to)) });
  }, [viewport, origin, reportId, setShownWindow]);
  useEffect(() => () => setShownWindow(null), [setShownWindow]);

  return { viewport, origin, extent, setViewport: setChosen, zoomTo, showWhole };
}

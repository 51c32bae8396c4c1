// The time window the timeline shows, as ns offsets from the events' first
// (lib/timeline's Viewport): the whole capture until something zooms or
// pans, and published to the view state for the permalink while shown.
// Zooms and filters are steps Backspace undoes (lib/timeline_nav). The
// window and its history outlive the view: a trip to Statistics and back
// finds the timeline where it was left.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { clampViewport, type Viewport } from '../lib/timeline';
import { popStep, pushStep, type NavStep } from '../lib/timeline_nav';
import { useView } from './view';

export interface TimelineWindow {
  /** Null until the tracks are in. */
  viewport: Viewport | null;
  /** The events' first time, absolute ns: the offsets' origin. */
  origin: bigint;
  /** The events' extent from the origin, ns. */
  extent: number;
  /** A window as it is, not a step to undo (a pan, a wheel's zoom; the canvas keeps them inside the events). */
  setViewport: (v: Viewport) => void;
  /** A zoom Backspace undoes: [from, to] kept inside the events and at least MIN_SPAN wide. */
  zoomTo: (from: number, to: number) => void;
  showWhole: () => void;
  /** A filter is about to change the statistics range from `filterTime` ('' none): one step with the window. */
  pushFilterStep: (filterTime: string) => void;
  /** Undoes the last step: its window is shown again; returns it (its filterTime for the caller to restore), or null. */
  back: () => NavStep | null;
  canGoBack: boolean;
}

const whole = (extent: number): Viewport => ({ from: 0, to: Math.max(1, extent) });

/** Per report: the window chosen (null the whole capture) and its steps, kept while the view is away. */
interface Remembered {
  chosen: Viewport | null;
  history: NavStep[];
}
const remembered = new Map<number, Remembered>();

export function useTimelineWindow(reportId: number, info: TimelineInfo | null): TimelineWindow {
  const { setShownWindow } = useView();
  const [state, setState] = useState<Remembered>(() => remembered.get(reportId) ?? { chosen: null, history: [] });
  useEffect(() => {
    remembered.set(reportId, state);
  }, [reportId, state]);
  const origin = info?.first ?? 0n;
  const extent = info ? Number(info.last - info.first) : 1;
  // One object while nothing changes: the canvas paints and the slices are asked for again when it does.
  const viewport = useMemo(() => (info ? (state.chosen ?? whole(extent)) : null), [info, state.chosen, extent]);
  const stateRef = useRef(state);
  stateRef.current = state;

  const setViewport = useCallback((v: Viewport) => setState((s) => ({ ...s, chosen: v })), []);
  const step = useCallback(
    (to: Viewport, filterTime?: string) =>
      setState((s) => ({ chosen: to, history: pushStep(s.history, { viewport: s.chosen ?? whole(extent), filterTime }) })),
    [extent],
  );
  const zoomTo = useCallback((from: number, to: number) => step(clampViewport({ from, to }, extent)), [extent, step]);
  const showWhole = useCallback(() => step(whole(extent)), [extent, step]);
  const pushFilterStep = useCallback(
    (filterTime: string) =>
      setState((s) => ({ ...s, history: pushStep(s.history, { viewport: s.chosen ?? whole(extent), filterTime }) })),
    [extent],
  );
  const back = useCallback(() => {
    const popped = popStep(stateRef.current.history);
    if (!popped) return null;
    const next = { chosen: popped.step.viewport, history: popped.rest };
    stateRef.current = next;
    setState(next);
    return popped.step;
  }, []);

  // The window shown, for the permalink (exact ns; offsets rounded outwards).
  useEffect(() => {
    if (!viewport) return;
    setShownWindow({ report: reportId, start: origin + BigInt(Math.floor(viewport.from)), end: origin + BigInt(Math.ceil(viewport.to)) });
  }, [viewport, origin, reportId, setShownWindow]);
  useEffect(() => () => setShownWindow(null), [setShownWindow]);

  return { viewport, origin, extent, setViewport, zoomTo, showWhole, pushFilterStep, back, canGoBack: state.history.length > 0 };
}

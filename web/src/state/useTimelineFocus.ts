// A table row's "Zoom to / Highlight in timeline" (or a permalink's window)
// applied once to this report's timeline: zoom to the span with a margin,
// show a window exactly, or only mark the span or every slice of a name.
import { useEffect, useRef } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import type { TimelineSelection } from './useTimelineSelection';
import type { TimelineWindow } from './useTimelineWindow';
import { useView } from './view';

export function useTimelineFocus(
  reportId: number,
  info: TimelineInfo | null,
  { origin, zoomTo }: Pick<TimelineWindow, 'origin' | 'zoomTo'>,
  { setHighlight, setHighlightName }: Pick<TimelineSelection, 'setHighlight' | 'setHighlightName'>,
): void {
  const { focus } = useView();
  const applied = useRef(0);
  useEffect(() => {
    if (!info || !focus || focus.report !== reportId || focus.seq === applied.current) return;
    applied.current = focus.seq;
    setHighlightName(focus.name ?? null);
    if (focus.name !== undefined) {
      setHighlight(null);
      return;
    }
    if (focus.exact) {
      zoomTo(Number(focus.start - origin), Number(focus.end - origin));
      return;
    }
    setHighlight([focus.start, focus.end]);
    if (focus.zoom) {
      const a = Number(focus.start - origin), b = Number(focus.end - origin);
      const pad = Math.max((b - a) * 0.1, 500);
      zoomTo(a - pad, b + pad);
    }
  }, [info, focus, reportId, origin, zoomTo, setHighlight, setHighlightName]);
}

// A table row's "Zoom to / Highlight / Show on timeline" (or a permalink's
// window) applied once to this report's timeline: zoom to the span with a
// margin, show a window exactly, mark the span or every slice of a name, or
// find the row's event itself (by its report table and row) and show it.
import { useEffect, useRef } from 'react';
import type { TimelineEvent, TimelineInfo } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { useEngine } from './engine';
import { message, useErrors } from './errors';
import type { TimelineSelection } from './useTimelineSelection';
import type { TimelineWindow } from './useTimelineWindow';
import { useView } from './view';

// Per report, the focus applied last: the view coming back (from Statistics)
// keeps the window it had, not the focus's again (useTimelineWindow keeps it).
const appliedSeq = new Map<number, number>();

export function useTimelineFocus(
  reportId: number,
  info: TimelineInfo | null,
  { origin, zoomTo }: Pick<TimelineWindow, 'origin' | 'zoomTo'>,
  { setHighlight, setHighlightName }: Pick<TimelineSelection, 'setHighlight' | 'setHighlightName'>,
  /** Brings an event found for a row into view, selected and spotlit. */
  showEvent: (e: TimelineEvent) => void,
): void {
  const { focus } = useView();
  const { client } = useEngine();
  const { pushError } = useErrors();
  const { t } = useLang();
  // The latest callback, without making every render a new focus.
  const show = useRef(showEvent);
  show.current = showEvent;
  useEffect(() => {
    if (!info || !focus || focus.report !== reportId || focus.seq === appliedSeq.get(reportId)) return;
    appliedSeq.set(reportId, focus.seq);
    setHighlightName(focus.name ?? null);
    if (focus.name !== undefined || focus.event) setHighlight(null);
    if (focus.name !== undefined) return;
    if (focus.event) {
      const { table, index } = focus.event;
      client
        .timelineFindEvent(reportId, table, index)
        .then((e) => (e ? show.current(e) : pushError(t.notOnTimeline(focus.label))))
        .catch((e) => pushError(message(e)));
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
  }, [info, focus, reportId, origin, zoomTo, setHighlight, setHighlightName, client, pushError, t]);
}

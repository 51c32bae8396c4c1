// Which view is shown (statistics, compare, timeline), what the timeline
// was asked to show (a table row's "Zoom to / Highlight in timeline", a
// permalink's window and Events view row) and the window and Events view
// row it shows (for the permalink).
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ViewName } from '../lib/permalink';
import type { EventRow } from '../engine/types';

export type View = ViewName;

/** A time span of a report the timeline shows (zoomed to, or only highlighted). */
export interface TimelineFocus {
  report: number;
  start: bigint;
  end: bigint;
  zoom: boolean;
  /** Show exactly this window (a permalink's), without a margin or a highlight. */
  exact?: boolean;
  /** Instead of a span: mark every slice of this name (a summary row's kernel or range). */
  name?: string;
  /** Instead of a span: this report event itself (a trace row's), found on the timeline by identity. */
  event?: EventRow;
  /** What it is ("HGTX Range", a kernel's name). */
  label: string;
  /** Changes with every request, so asking for the same span twice acts twice. */
  seq: number;
}

/**
 * Rows a rule's table is asked to select (a timeline slice's "Show in
 * table": the row of an event; the advice tab's "Open rows": rows by number).
 */
export interface TableFocus {
  report: number;
  rule: string;
  /** The row standing for this event (the engine finds it in the result). */
  event?: EventRow;
  /** Rows by their number in the rule's own order. */
  rows?: number[];
  seq: number;
}

/** The window the timeline shows (absolute ns), for the permalink. */
export interface ShownWindow {
  report: number;
  start: bigint;
  end: bigint;
}

/** A report's timeline row whose events the Events view lists: shown (for the permalink), or asked for (by one). */
export interface EventsPaneRow {
  report: number;
  track: number;
}

interface ViewState {
  view: View;
  setView: (v: View) => void;
  focus: TimelineFocus | null;
  showInTimeline: (f: Omit<TimelineFocus, 'seq'>) => void;
  shownWindow: ShownWindow | null;
  setShownWindow: (w: ShownWindow | null) => void;
  /** The row the Events view lists while the timeline shows (null: no pane). */
  shownEvents: EventsPaneRow | null;
  setShownEvents: (e: EventsPaneRow | null) => void;
  /** A permalink's Events view row, to open once the report's timeline is in; `seq` changes with every request. */
  eventsRequest: (EventsPaneRow & { seq: number }) | null;
  openEventsView: (e: EventsPaneRow) => void;
  tableFocus: TableFocus | null;
  /** Shows the statistics view with the rule and the rows asked for selected. */
  showInTable: (f: Omit<TableFocus, 'seq'>) => void;
}

const Ctx = createContext<ViewState | null>(null);

export function ViewProvider({ children }: { children: ReactNode }) {
  const [view, setView] = useState<View>('stats');
  const [focus, setFocus] = useState<TimelineFocus | null>(null);
  const showInTimeline = useCallback((f: Omit<TimelineFocus, 'seq'>) => {
    setFocus((prev) => ({ ...f, seq: (prev?.seq ?? 0) + 1 }));
    setView('timeline');
  }, []);
  const [shownWindow, setShownWindow] = useState<ShownWindow | null>(null);
  const [shownEvents, setShownEvents] = useState<EventsPaneRow | null>(null);
  const [eventsRequest, setEventsRequest] = useState<(EventsPaneRow & { seq: number }) | null>(null);
  const openEventsView = useCallback((e: EventsPaneRow) => setEventsRequest((prev) => ({ ...e, seq: (prev?.seq ?? 0) + 1 })), []);
  const [tableFocus, setTableFocus] = useState<TableFocus | null>(null);
  const showInTable = useCallback((f: Omit<TableFocus, 'seq'>) => {
    setTableFocus((prev) => ({ ...f, seq: (prev?.seq ?? 0) + 1 }));
    setView('stats');
  }, []);
  const value = useMemo(
    () => ({
      view,
      setView,
      focus,
      showInTimeline,
      shownWindow,
      setShownWindow,
      shownEvents,
      setShownEvents,
      eventsRequest,
      openEventsView,
      tableFocus,
      showInTable,
    }),
    [view, focus, showInTimeline, shownWindow, shownEvents, eventsRequest, openEventsView, tableFocus, showInTable],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useView(): ViewState {
  const v = useContext(Ctx);
  if (!v) throw new Error('useView outside ViewProvider');
  return v;
}

// Which view is shown (statistics, compare, timeline), and what the timeline
// was asked to show: a table row's "Zoom to / Highlight in timeline" lands
// here from any view.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ViewName } from '../lib/permalink';

export type View = ViewName;

/** A time span of a report the timeline shows (zoomed to, or only highlighted). */
export interface TimelineFocus {
  report: number;
  start: bigint;
  end: bigint;
  zoom: boolean;
  /** What it is ("HGTX Range", a kernel's name). */
  label: string;
  /** Changes with every request, so asking for the same span twice acts twice. */
  seq: number;
}

interface ViewState {
  view: View;
  setView: (v: View) => void;
  focus: TimelineFocus | null;
  showInTimeline: (f: Omit<TimelineFocus, 'seq'>) => void;
}

const Ctx = createContext<ViewState | null>(null);

export function ViewProvider({ children }: { children: ReactNode }) {
  const [view, setView] = useState<View>('stats');
  const [focus, setFocus] = useState<TimelineFocus | null>(null);
  const showInTimeline = useCallback((f: Omit<TimelineFocus, 'seq'>) => {
    setFocus((prev) => ({ ...f, seq: (prev?.seq ?? 0) + 1 }));
    setView('timeline');
  }, []);
  const value = useMemo(() => ({ view, setView, focus, showInTimeline }), [view, focus, showInTimeline]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useView(): ViewState {
  const v = useContext(Ctx);
  if (!v) throw new Error('useView outside ViewProvider');
  return v;
}

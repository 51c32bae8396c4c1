// The timeline's keyboard navigation as Nsight Systems users expect it, and
// its undo history, as pure helpers: the canvas maps a key to an action, the
// window hook (state/useTimelineWindow) keeps the history of zooms and
// filters that Backspace walks back one step at a time.
import type { Viewport } from './timeline';

export type NavAction =
  | { kind: 'zoom'; factor: number }
  | { kind: 'pan'; fraction: number }
  | { kind: 'back' }
  | { kind: 'zoomToSelection' }
  | { kind: 'filterToSelection' };

/** A key's zoom in: the window shrinks to this share of itself around its middle. */
export const KEY_ZOOM_IN = 0.8;
export const KEY_ZOOM_OUT = 1 / KEY_ZOOM_IN;
/** A key's pan: this share of the window. */
export const KEY_PAN = 0.2;

const KEYS: Record<string, NavAction> = {
  '+': { kind: 'zoom', factor: KEY_ZOOM_IN },
  '=': { kind: 'zoom', factor: KEY_ZOOM_IN }, // "+" without Shift on most layouts
  w: { kind: 'zoom', factor: KEY_ZOOM_IN },
  '-': { kind: 'zoom', factor: KEY_ZOOM_OUT },
  _: { kind: 'zoom', factor: KEY_ZOOM_OUT },
  s: { kind: 'zoom', factor: KEY_ZOOM_OUT },
  ArrowLeft: { kind: 'pan', fraction: -KEY_PAN },
  a: { kind: 'pan', fraction: -KEY_PAN },
  ArrowRight: { kind: 'pan', fraction: KEY_PAN },
  d: { kind: 'pan', fraction: KEY_PAN },
  Backspace: { kind: 'back' },
  z: { kind: 'zoomToSelection' },
  f: { kind: 'filterToSelection' },
};

/** The action of a key pressed on the timeline, or null (not one of its keys, or a modifier held). */
export function navActionFor(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): NavAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  return KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key] ?? null;
}

/**
 * One step Backspace undoes: the window before it, and for a filter the
 * report's statistics range before it (its filter text; '' none).
 */
export interface NavStep {
  viewport: Viewport;
  filterTime?: string;
}

/** At most this many steps are kept: the oldest go first. */
export const HISTORY_LIMIT = 100;

/** The history with `step` on top (a new array; the oldest dropped beyond the limit). */
export function pushStep(history: readonly NavStep[], step: NavStep): NavStep[] {
  const last = history[history.length - 1];
  // A step that changes nothing (the same window, no filter) is not one to undo.
  if (last && step.filterTime === undefined && last.filterTime === undefined && sameWindow(last.viewport, step.viewport)) return [...history];
  const next = [...history, step];
  return next.length > HISTORY_LIMIT ? next.slice(next.length - HISTORY_LIMIT) : next;
}

/** The step to undo and the history without it; null when there is none. */
export function popStep(history: readonly NavStep[]): { step: NavStep; rest: NavStep[] } | null {
  if (history.length === 0) return null;
  return { step: history[history.length - 1], rest: history.slice(0, -1) };
}

function sameWindow(a: Viewport, b: Viewport): boolean {
  return a.from === b.from && a.to === b.to;
}

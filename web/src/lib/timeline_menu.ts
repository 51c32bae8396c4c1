// The timeline's right-click menu's "Go to" targets and the vertical scroll
// that brings a row into view, as pure helpers (views/TimelineView uses them).
import type { TimelineEvent, TimelineRelated } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';

export interface GoTo {
  to: 'hostApi' | 'deviceActivity';
  /** The event it goes to; null: the selection has none (the item is shown disabled). */
  event: TimelineEvent | null;
}

const isCall = (kind: number) => SLICE_KINDS[kind] === 'api' || SLICE_KINDS[kind] === 'apiError';

/**
 * "Go to Host API" leads from a PPU activity to the HGGC API call that
 * launched it; "Go to Device Activity" from a call to the first activity it
 * launched. Both are always listed, each null where the selected event (its
 * links, the engine's timelineRelated) has no such event.
 */
export function linkTargets(links: TimelineRelated | null): GoTo[] {
  const first = links?.related[0] ?? null;
  const fromCall = links !== null && isCall(links.selected.kind);
  return [
    { to: 'hostApi', event: links && !fromCall ? first : null },
    { to: 'deviceActivity', event: fromCall ? first : null },
  ];
}

/**
 * The scroll offset that shows the row at layout [top, top + height) in a
 * view of `view` px scrolled to `scrollTop`: unchanged when it is in view,
 * else the least scroll that shows it (its top first when it is taller).
 */
export function scrollToShow(top: number, height: number, scrollTop: number, view: number): number {
  if (top >= scrollTop && top + height <= scrollTop + view) return scrollTop;
  if (top < scrollTop || height >= view) return Math.max(0, top);
  return top + height - view;
}

/**
 * The scroll offset that puts the row at layout [top, top + height) in the
 * middle of a view of `view` px (its top first when it is taller): a row a
 * table asked for stays in view when the details below grow.
 */
export function scrollToMiddle(top: number, height: number, view: number): number {
  if (height >= view) return Math.max(0, top);
  return Math.max(0, Math.round(top + height / 2 - view / 2));
}

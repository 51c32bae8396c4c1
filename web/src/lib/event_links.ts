// Rule rows and timeline events linked by identity (issue 23): a row's
// report events (a trace row's kernel, its launching API call) for "Show on
// timeline", the row menu's timeline items, and the rule that lists a
// timeline slice's event for "Show in table". Pure; the engine finds an
// event by its report table and row (timelineFindEvent) and a result's row
// by the same (resultRowOfEvent).
import { WIRE_EVENT_TABLES } from '../engine/bridge_schema.gen';
import { SLICE_KINDS, type SliceKind } from '../engine/timeline_types';
import type { EventRow } from '../engine/types';
import type { DecodedResult } from './result';

/** Row `row`'s event `which` in a result (or a page) that holds it; null when the row has none. */
export function eventAt(r: DecodedResult, row: number, which: number): EventRow | null {
  const e = r.events[which];
  if (!e || row < 0 || row >= e.table.length) return null;
  const table = WIRE_EVENT_TABLES[e.table[row]];
  return table === undefined || table === 'none' ? null : { table, index: e.index[row] };
}

/**
 * The rule whose table lists a timeline event of each kind, one row an
 * event: PPU work in hggc_ppu_trace (a PCCL kernel is a kernel there), API
 * calls in hggc_api_trace, push/pop ranges in hgtx_pushpop_trace. OSRT
 * calls, PCCL stages and projections are in no trace of their own.
 */
const RULE_OF_KIND: Partial<Record<SliceKind, string>> = {
  kernel: 'hggc_ppu_trace',
  memcpy: 'hggc_ppu_trace',
  memset: 'hggc_ppu_trace',
  pcclKernel: 'hggc_ppu_trace',
  api: 'hggc_api_trace',
  apiError: 'hggc_api_trace',
  hgtx: 'hgtx_pushpop_trace',
  allocFailure: 'hggc_api_trace',
};

/** The rule that lists an event of timeline kind `kind` (an index into SLICE_KINDS), null for none. */
export function ruleOfSliceKind(kind: number): string | null {
  const name = SLICE_KINDS[kind];
  return (name && RULE_OF_KIND[name]) ?? null;
}

/** One timeline item of a row's right-click menu. */
export type RowTimelineItem =
  | { kind: 'zoom' | 'highlight'; name: string; span: number }
  | { kind: 'show'; name: string; event: EventRow };

/**
 * A row's timeline items, in the order of its spans, then its events: per
 * span it has, "Zoom to" it; then, when the row has an event of the span's
 * name (a trace row's kernel and its "Device Activity" span), "Show on
 * timeline" the event itself in place of "Highlight" (a time band); else
 * "Highlight". An event with no span of its name is "Show on timeline" alone.
 * `spans[i]`: whether the row has span i (named spanNames[i]); `events[i]`:
 * the row's event i (named eventNames[i]) or null.
 */
export function rowTimelineItems(
  spanNames: readonly string[],
  spans: readonly boolean[],
  eventNames: readonly string[],
  events: readonly (EventRow | null)[],
): RowTimelineItem[] {
  const items: RowTimelineItem[] = [];
  const used = new Set<number>();
  spanNames.forEach((name, i) => {
    if (!spans[i]) return;
    items.push({ kind: 'zoom', name, span: i });
    const e = eventNames.indexOf(name);
    const event = e >= 0 ? events[e] : null;
    if (event) {
      used.add(e);
      items.push({ kind: 'show', name, event });
    } else {
      items.push({ kind: 'highlight', name, span: i });
    }
  });
  eventNames.forEach((name, e) => {
    const event = events[e];
    if (event && !used.has(e)) items.push({ kind: 'show', name, event });
  });
  return items;
}

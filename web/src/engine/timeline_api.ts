// The timeline's engine calls (wasm/engine_bindings.cc: timelineTracks,
// timelineWindow, timelineRelated, timelineSelection) turned into typed, transferable shapes (timeline_types.ts),
// in the worker. Times are int64: BigInt and BigInt64Array, never doubles; a
// window is asked for in decimal text.
import { decodeTextPool, takePagedRun, unwrap, type AsysEngine } from './engine_api';
import { WIRE_EVENT_TABLES, WIRE_EVENTS_VIEW_KINDS, type WireEventsViewKind } from './bridge_schema.gen';
import type { EventRow, EventsViewResult } from './types';
import type {
  CounterInfo,
  CounterSteps,
  DeviceSelectionStats,
  SelectionStats,
  TimelineEvent,
  TimelineInfo,
  TimelineRelated,
  TimelineShares,
  TimelineTrackInfo,
  TimelineWindowSlices,
} from './timeline_types';

const big = (v: unknown) => (typeof v === 'bigint' ? v : BigInt(String(v)));
const int64s = (v: unknown) => {
  const bytes = v instanceof Uint8Array ? v : new Uint8Array(0);
  return new BigInt64Array(bytes.slice().buffer);
};

function counterInfo(v: unknown): CounterInfo | null {
  if (v == null || typeof v !== 'object') return null;
  const c = v as Record<string, unknown>;
  const integer = c.integer === true;
  const max = c.max == null ? null : integer ? big(c.max) : Number(c.max);
  return { unit: String(c.unit ?? ''), integer, max };
}

/** A host row's kind and its events' notes (core/timeline/host_rows.h), else nothing. */
function hostRowOf(t: Record<string, unknown>): Pick<TimelineTrackInfo, 'hostRow' | 'hostNotes'> {
  const row = t.hostRow;
  if (row !== 'startEnd' && row !== 'library' && row !== 'allocationFailures') return {};
  const n = t.hostNotes as Record<string, unknown> | undefined;
  if (!n) return { hostRow: row };
  return { hostRow: row, hostNotes: { thread: int64s(n.thread), endThread: int64s(n.endThread), value: int64s(n.value) } };
}

/** A graph row's stream, graph, exec and launches' notes (core/timeline/graph_rows.cc), else nothing. */
function graphRowOf(t: Record<string, unknown>): Pick<TimelineTrackInfo, 'graphOf' | 'graph' | 'exec' | 'graphNotes'> {
  if (typeof t.graphOf !== 'number') return {};
  const n = t.graphNotes as Record<string, unknown> | undefined;
  return {
    graphOf: t.graphOf,
    graph: typeof t.graph === 'number' ? t.graph : null,
    ...(typeof t.exec === 'number' ? { exec: t.exec } : {}),
    ...(n
      ? {
          graphNotes: {
            correlationId: int64s(n.correlationId),
            busy: int64s(n.busy),
            kernels: n.kernels as Uint32Array,
            memcpys: n.memcpys as Uint32Array,
            memsets: n.memsets as Uint32Array,
          },
        }
      : {}),
  };
}

export function takeTimelineInfo(v: unknown): TimelineInfo {
  const o = unwrap(v, 'timelineTracks');
  const tracks = (Array.isArray(o.tracks) ? o.tracks : []).map((t: Record<string, unknown>) => ({
    id: Number(t.id),
    group: String(t.group ?? ''),
    label: String(t.label ?? ''),
    lanes: Math.max(1, Number(t.lanes) || 1),
    events: Number(t.events) || 0,
    busy: t.busy == null ? 0n : big(t.busy),
    share: typeof t.share === 'number' ? t.share : null,
    context: String(t.context ?? ''),
    contextShare: typeof t.contextShare === 'number' ? t.contextShare : null,
    counter: counterInfo(t.counter),
    ...(Array.isArray(t.sources) ? { sources: t.sources.map(Number) } : {}),
    ...(typeof t.parent === 'number' ? { parent: t.parent } : {}),
    ...hostRowOf(t),
    ...graphRowOf(t),
    ...(t.groupedBy === 'hgtxRange' || t.groupedBy === 'baseName' ? { groupedBy: t.groupedBy as 'baseName' | 'hgtxRange' } : {}),
    ...(t.outsideRanges === true ? { outsideRanges: true } : {}),
    ...(typeof t.otherRanges === 'number' && t.otherRanges > 0 ? { otherRanges: t.otherRanges } : {}),
    ...(t.deviceRow === true
      ? {
          deviceRow: true,
          kernelShare: typeof t.kernelShare === 'number' ? t.kernelShare : null,
          memoryShare: typeof t.memoryShare === 'number' ? t.memoryShare : null,
        }
      : {}),
  }));
  const groups = (Array.isArray(o.groups) ? o.groups : []).map((g: Record<string, unknown>) => ({
    name: String(g.name ?? ''),
    busy: g.busy == null ? 0n : big(g.busy),
    share: typeof g.share === 'number' ? g.share : null,
  }));
  const notes = (Array.isArray(o.notes) ? o.notes : []).map(String);
  const captureStart = o.captureStart == null ? null : big(o.captureStart);
  const r = o.rangeGroupsRefused as Record<string, unknown> | null | undefined;
  const rangeGroupsRefused = r && typeof r === 'object' ? { activities: Number(r.activities), max: Number(r.max) } : null;
  return { first: big(o.first), last: big(o.last), captureStart, tracks, groups, notes, rangeGroupsRefused };
}

export function takeTimelineShares(v: unknown): TimelineShares {
  const o = unwrap(v, 'timelineShares');
  const num = (x: unknown) => (typeof x === 'number' ? x : null);
  const tracks = (Array.isArray(o.tracks) ? o.tracks : []).map((t: Record<string, unknown>) => ({
    share: num(t.share),
    contextShare: num(t.contextShare),
    ...('kernelShare' in t ? { kernelShare: num(t.kernelShare), memoryShare: num(t.memoryShare) } : {}),
  }));
  const groups = (Array.isArray(o.groups) ? o.groups : []).map(num);
  return { tracks, groups };
}

export function takeTimelineWindow(v: unknown): TimelineWindowSlices {
  const o = unwrap(v, 'timelineWindow');
  const tracks = (Array.isArray(o.tracks) ? o.tracks : []).map((t: Record<string, unknown>) => ({
    id: Number(t.id),
    start: int64s(t.start),
    end: int64s(t.end),
    lane: t.lane as Uint16Array,
    kind: t.kind as Uint8Array,
    count: t.count as Uint32Array,
    event: t.event as Uint32Array,
    name: t.name as Uint32Array,
    ...(t.memKind instanceof Uint8Array ? { memKind: t.memKind } : {}),
    ...(t.occupancy instanceof Float32Array
      ? {
          occupancy: {
            from: big(t.occupancyFrom),
            to: big(t.occupancyTo),
            values: t.occupancy,
            ...(t.occupancyLower instanceof Float32Array ? { lower: t.occupancyLower } : {}),
          },
        }
      : {}),
  }));
  // Integer counters' values as int64 bytes (exact), the others as Float64Array.
  const counters: CounterSteps[] = (Array.isArray(o.counters) ? o.counters : []).map((c: Record<string, unknown>) => {
    const integer = c.integer === true;
    const values = (v: unknown) => (integer ? int64s(v) : v instanceof Float64Array ? v : new Float64Array(0));
    return { id: Number(c.id), integer, time: int64s(c.time), min: values(c.min), max: values(c.max) };
  });
  const pool = decodeTextPool(o.textPool);
  return { names: pool === '' && tracks.every((t) => t.name.length === 0) ? [] : pool.split('\0'), tracks, counters };
}

/** The typed arrays of a window, for postMessage's transfer list. */
export function windowBuffers(w: TimelineWindowSlices): ArrayBuffer[] {
  return [
    ...w.tracks.flatMap((t) => [t.start, t.end, t.lane, t.kind, t.count, t.event, t.name, ...(t.memKind ? [t.memKind] : []), ...(t.occupancy ? [t.occupancy.values] : []), ...(t.occupancy?.lower ? [t.occupancy.lower] : [])].map((a) => a.buffer as ArrayBuffer)),
    ...(w.counters ?? []).flatMap((c) => [c.time, c.min, c.max].map((a) => a.buffer as ArrayBuffer)),
  ];
}

/** One event as the engine answers it ({track, event, start, end, lane, kind, name}). */
function eventOf(sel: Record<string, unknown>): TimelineEvent {
  return {
    track: Number(sel.track),
    event: Number(sel.event),
    start: big(sel.start),
    end: big(sel.end),
    lane: Number(sel.lane),
    kind: Number(sel.kind),
    name: String(sel.name ?? ''),
  };
}

/** timelineFindEvent's answer: the event, null when the timeline does not draw it. */
export function takeFoundEvent(v: unknown): TimelineEvent | null {
  const o = unwrap(v, 'timelineFindEvent');
  return o.event == null ? null : eventOf(o.event as Record<string, unknown>);
}

/** timelineEventRow's answer: the event's report table and row, null for an event of none. */
export function takeEventRow(v: unknown): EventRow | null {
  const o = unwrap(v, 'timelineEventRow');
  const table = String(o.table);
  if (table === 'none' || o.index == null) return null;
  if (!(WIRE_EVENT_TABLES as readonly string[]).includes(table)) throw new Error(`timelineEventRow: unknown table ${table}`);
  return { table: table as EventRow['table'], index: Number(o.index) };
}

/** resultRowOfEvent's answer: the row, null when the result has none for the event. */
export function takeResultRow(v: unknown): number | null {
  const o = unwrap(v, 'resultRowOfEvent');
  return o.row == null ? null : Number(o.row);
}

/** The selected event and its linked events, as objects: a few, or a graph launch's thousands, never a window's worth. */
export function takeTimelineRelated(v: unknown): TimelineRelated {
  const o = unwrap(v, 'timelineRelated');
  const selected = eventOf(o.selected as Record<string, unknown>);
  const r = o.related as Record<string, unknown>;
  const track = r.track as Uint32Array, event = r.event as Uint32Array;
  const start = int64s(r.start), end = int64s(r.end);
  const lane = r.lane as Uint16Array, kind = r.kind as Uint8Array, name = r.name as Uint32Array;
  const pool = decodeTextPool(o.textPool).split('\0');
  const related: TimelineEvent[] = [];
  for (let i = 0; i < track.length; i++) {
    related.push({ track: track[i], event: event[i], start: start[i], end: end[i], lane: lane[i], kind: kind[i], name: pool[name[i]] ?? '' });
  }
  return { selected, related };
}

/** A field of an engine answer that must be a BigInt (an exact time); throws naming it otherwise. */
function bigField(o: Record<string, unknown>, field: string, where: string): bigint {
  const v = o[field];
  if (typeof v !== 'bigint') throw new Error(`timelineSelection: ${where}.${field} is ${String(v)}, expected a BigInt`);
  return v;
}

/** A field that must be a finite number. */
function numberField(o: Record<string, unknown>, field: string, where: string): number {
  const v = o[field];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`timelineSelection: ${where}.${field} is ${String(v)}, expected a number`);
  return v;
}

/** timelineSelection's figures, read strictly: a missing or mistyped field is an error naming it, never a silent 0. */
export function takeSelectionStats(v: unknown): SelectionStats {
  const o = unwrap(v, 'timelineSelection');
  const sel = o.selection as Record<string, unknown> | undefined;
  if (!sel || typeof sel !== 'object') throw new Error('timelineSelection: the answer has no selection');
  if (!Array.isArray(sel.devices)) throw new Error('timelineSelection: selection.devices is not a list');
  const devices = sel.devices.map((d: Record<string, unknown>, i: number): DeviceSelectionStats => {
    const where = `selection.devices[${i}]`;
    if (typeof d.name !== 'string') throw new Error(`timelineSelection: ${where}.name is not a text`);
    return {
      device: numberField(d, 'device', where),
      name: d.name,
      active: bigField(d, 'active', where),
      idle: bigField(d, 'idle', where),
      kernel: bigField(d, 'kernel', where),
      memory: bigField(d, 'memory', where),
      activePercent: numberField(d, 'activePercent', where),
      idlePercent: numberField(d, 'idlePercent', where),
      kernelPercent: numberField(d, 'kernelPercent', where),
      memoryPercent: numberField(d, 'memoryPercent', where),
    };
  });
  return { from: bigField(sel, 'from', 'selection'), to: bigField(sel, 'to', 'selection'), length: bigField(sel, 'length', 'selection'), devices };
}

/** eventsView's answer: a paged result (its rows come by pageRows) and which columns it has. */
export function takeEventsView(v: unknown, engine: AsysEngine): EventsViewResult {
  const o = unwrap(v, 'eventsView');
  const kind = String(o.kind);
  if (!(WIRE_EVENTS_VIEW_KINDS as readonly string[]).includes(kind)) throw new Error(`eventsView: unknown kind ${kind}`);
  if (o.paged !== true) throw new Error('eventsView: the answer is not a paged result');
  return { ...takePagedRun(v, engine), kind: kind as WireEventsViewKind, track: Number(o.track) };
}

/** eventsViewEvent's answer: the timeline event an Events view row shows. */
export function takeEventsViewEvent(v: unknown): TimelineEvent {
  const o = unwrap(v, 'eventsViewEvent');
  if (o.event == null || typeof o.event !== 'object') throw new Error('eventsViewEvent: no event in the answer');
  return eventOf(o.event as Record<string, unknown>);
}

/** eventsViewRow's answer: the row, null when the statistics range leaves the event out. */
export function takeEventsViewRow(v: unknown): number | null {
  const o = unwrap(v, 'eventsViewRow');
  return o.row == null ? null : Number(o.row);
}

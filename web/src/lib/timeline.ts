// The timeline view's arithmetic, free of the DOM: the visible window (as ns
// offsets from an exact BigInt origin: doubles hold offsets of up to 104 days
// exactly, never epoch times), zoom and pan, the axis ticks, the tracks'
// layout and hit testing of the merged slices.
import type { CounterInfo, CounterSteps, TimelineInfo, TimelineShares, TimelineTrackInfo, TrackSlices } from '../engine/timeline_types';
import { formatBytes, formatInt } from './format';
import { timeZeroOf } from './time_zero';
import { groupingOf, type KernelGrouping } from './kernel_grouping';
import { placeGraphRows } from './graph_rows';

export interface Viewport {
  /** Offsets in ns from the timeline's origin. */
  from: number;
  to: number;
}

/** The narrowest window: 100 ns across the view. */
export const MIN_SPAN = 100;

/** Keeps a window inside [0, extent] (some margin allowed) and at least MIN_SPAN wide. */
export function clampViewport(v: Viewport, extent: number): Viewport {
  const margin = Math.max(extent * 0.05, MIN_SPAN);
  let span = Math.min(Math.max(v.to - v.from, MIN_SPAN), extent + 2 * margin);
  let from = v.from;
  if (!(span > 0)) span = MIN_SPAN;
  from = Math.min(Math.max(from, -margin), extent + margin - span);
  return { from, to: from + span };
}

/** Zooms by `factor` (< 1 zooms in) around the point at `at` (0..1 across the view). */
export function zoomAround(v: Viewport, at: number, factor: number, extent: number): Viewport {
  const span = v.to - v.from;
  const pivot = v.from + span * at;
  const next = span * factor;
  return clampViewport({ from: pivot - next * at, to: pivot - next * at + next }, extent);
}

/** Pans by `fraction` of the view's width (negative: earlier). */
export function panBy(v: Viewport, fraction: number, extent: number): Viewport {
  const d = (v.to - v.from) * fraction;
  return clampViewport({ from: v.from + d, to: v.to + d }, extent);
}

/** The track labels' column, left of the plot, px. */
export const LABEL_WIDTH = 230;
/** The time axis along the top of the canvas, px. */
export const AXIS_HEIGHT = 24;

/** How a viewport maps onto a canvas `width` px wide: the plot right of the labels, offsets (ns) <-> x (px). */
export interface PlotScale {
  /** The plot's width, px (at least 1). */
  plot: number;
  toPx: (offset: number) => number;
  toOffset: (x: number) => number;
}

export function plotScale(v: Viewport, width: number): PlotScale {
  const plot = Math.max(1, width - LABEL_WIDTH);
  const span = v.to - v.from;
  return {
    plot,
    toPx: (offset) => LABEL_WIDTH + ((offset - v.from) / span) * plot,
    toOffset: (x) => v.from + ((x - LABEL_WIDTH) / plot) * span,
  };
}

/** Axis ticks at a 1, 2 or 5 x 10^k ns step, about `spacing` px apart. */
export function ticks(v: Viewport, widthPx: number, spacing = 110): number[] {
  const span = v.to - v.from;
  if (!(span > 0) || widthPx <= 0) return [];
  const raw = (span / widthPx) * spacing;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const out: number[] = [];
  for (let t = Math.ceil(v.from / step) * step; t <= v.to; t += step) out.push(t);
  return out;
}

/** A tick's label: the offset in the largest unit in which the tick step is at least 0.1, with the digits the step needs ("+1.5 ms"). */
export function tickLabel(ns: number, step: number): string {
  const units: [number, string][] = [
    [1e9, 's'],
    [1e6, 'ms'],
    [1e3, 'µs'],
    [1, 'ns'],
  ];
  const [div, unit] = units.find(([d]) => step / d >= 0.1) ?? units[3];
  const digits = Math.max(0, -Math.floor(Math.log10(step / div) + 1e-9));
  return `${ns < 0 ? '-' : '+'}${(Math.abs(ns) / div).toFixed(digits)} ${unit}`;
}

/**
 * The axis's ticks for a window of offsets from the view's origin, at round
 * times since the report's time zero (lib/time_zero.ts): `shift` is the ns
 * from the zero to the origin. Each tick's offset (where it is drawn) and
 * its label, the time since the zero ("+371.4 ms").
 */
export function axisTicks(v: Viewport, widthPx: number, shift: number): { offsets: number[]; labels: string[] } {
  const since = ticks({ from: v.from + shift, to: v.to + shift }, widthPx);
  const step = since.length > 1 ? since[1] - since[0] : v.to - v.from;
  return { offsets: since.map((t) => t - shift), labels: since.map((t) => tickLabel(t, step)) };
}

export interface TrackRow {
  track: TimelineTrackInfo;
  /** Top of the track's first lane, px. */
  top: number;
  height: number;
  /** The first track of its group (draws the group's heading). */
  groupStart: boolean;
  /** The first stream of a context (draws the context's heading, under the group's). */
  contextStart: boolean;
  /** The top of its headings (its own top when it has none). */
  headTop: number;
}

export const LANE_HEIGHT = 16;
/** A counter track's step chart. */
export const COUNTER_HEIGHT = 30;
export const GROUP_HEADING = 18;
export const CONTEXT_HEADING = 16;
const TRACK_GAP = 4;

export interface TrackLayout {
  rows: TrackRow[];
  height: number;
}

/** Tracks stacked top-down: a heading before each group and each context of it, lanes of LANE_HEIGHT. */
export function layoutTracks(tracks: TimelineTrackInfo[]): TrackLayout {
  const rows: TrackRow[] = [];
  let y = 0;
  let group = '';
  let context = '';
  for (const track of tracks) {
    const headTop = y;
    const groupStart = track.group !== group;
    if (groupStart) {
      y += GROUP_HEADING;
      group = track.group;
      context = '';
    }
    const contextStart = !!track.context && track.context !== context;
    if (contextStart) y += CONTEXT_HEADING;
    context = track.context ?? '';
    const height = track.counter ? COUNTER_HEIGHT : track.lanes * LANE_HEIGHT;
    rows.push({ track, top: y, height, groupStart, contextStart, headTop });
    y += height + TRACK_GAP;
  }
  return { rows, height: y };
}

/**
 * The rows a vertical span [top, bottom) of the layout shows any part of
 * (rows are in top order: found by bisection, so a scroll costs no walk).
 * A group's or context's heading belongs to its first row.
 */
export function rowsIn(rows: TrackRow[], top: number, bottom: number): TrackRow[] {
  let lo = 0, hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid].top + rows[mid].height <= top) lo = mid + 1;
    else hi = mid;
  }
  const out: TrackRow[] = [];
  for (let i = lo; i < rows.length && rows[i].headTop < bottom; i++) out.push(rows[i]);
  return out;
}

/**
 * The tracks to ask a window for while the rows from `scrollTop` down
 * `viewHeight` px are in view: those of the screens above and below too, in
 * steps of whole screens, so a scroll within a screen asks for nothing new
 * and one past it finds its rows already drawn. `key` changes only when the
 * set does.
 */
export function tracksToFetch(rows: TrackRow[], scrollTop: number, viewHeight: number): { ids: number[]; key: string } {
  const screen = Math.max(1, viewHeight);
  const band = Math.floor(Math.max(0, scrollTop) / screen);
  const ids = rowsIn(rows, (band - 1) * screen, (band + 2) * screen).map((r) => r.track.id);
  return { ids, key: `${band}:${screen}:${rows.length}` };
}

/** A slice picked by a click: which track, which of the window's slices. */
export interface PickedSlice {
  track: number;
  index: number;
}

/** The slice under (x px, lane) of a track's window, or -1: the nearest within 2 px wins. */
export function sliceAt(
  s: TrackSlices,
  lane: number,
  xPx: number,
  toPx: (offset: number) => number,
  origin: bigint,
): number {
  let best = -1;
  let bestDist = 3;
  for (let i = 0; i < s.lane.length; i++) {
    if (s.lane[i] !== lane) continue;
    const x0 = toPx(Number(s.start[i] - origin));
    const x1 = Math.max(toPx(Number(s.end[i] - origin)), x0 + 1);
    const d = xPx < x0 ? x0 - xPx : xPx > x1 ? xPx - x1 : 0;
    if (d < bestDist) {
      best = i;
      bestDist = d;
    }
  }
  return best;
}

/**
 * The event a slice's `event` stands for: on a merged row (`[All Streams]`,
 * with `sources`) the sources' events are numbered one after another, so
 * event e is event e - (the events of the sources before it) of the source
 * that holds it; on any other row it is itself. null past the row's events
 * or for an unknown track.
 */
export function sourceEventOf(
  trackOf: (id: number) => Pick<TimelineTrackInfo, 'events' | 'sources'> | undefined,
  track: number,
  event: number,
): { track: number; event: number } | null {
  const t = trackOf(track);
  if (!t || event < 0) return null;
  if (!t.sources) return event < t.events ? { track, event } : null;
  let e = event;
  for (const id of t.sources) {
    const n = trackOf(id)?.events ?? 0;
    if (e < n) return { track: id, event: e };
    e -= n;
  }
  return null;
}

/**
 * The rows in the order they are drawn: each track in id order, a stream's
 * rows of kernels by base name or by HGTX range (`parent`: the stream,
 * `groupedBy`: which) right after it when `grouped` names their grouping
 * ("Show kernels grouped by"; true: base name), else left out; a PPU's
 * device row (appended by the engine after every other row) right after
 * the last of its sources (its PPU's work rows) and that row's own rows;
 * a stream's graph rows (`graphOf`: the stream) right after the stream and
 * its kernel rows shown (lib/graph_rows.ts placeGraphRows).
 */
export function displayOrder<T extends Pick<TimelineTrackInfo, 'id' | 'parent' | 'groupedBy' | 'deviceRow' | 'sources' | 'graphOf'>>(
  tracks: T[],
  grouped: boolean | KernelGrouping,
): T[] {
  const shown: KernelGrouping = grouped === true ? 'baseName' : grouped === false ? 'none' : grouped;
  const children = new Map<number, T[]>();
  const deviceAfter = new Map<number, T[]>();
  const graphRows: T[] = [];
  for (const t of tracks) {
    if (t.graphOf !== undefined) {
      graphRows.push(t);
      continue;
    }
    if (t.deviceRow && t.sources?.length) {
      const at = Math.max(...t.sources);
      deviceAfter.set(at, [...(deviceAfter.get(at) ?? []), t]);
      continue;
    }
    if (t.parent === undefined || groupingOf(t) !== shown) continue;
    const list = children.get(t.parent) ?? [];
    list.push(t);
    children.set(t.parent, list);
  }
  const out: T[] = [];
  for (const t of tracks) {
    if (t.parent !== undefined || t.deviceRow || t.graphOf !== undefined) continue;
    out.push(t);
    if (shown !== 'none') out.push(...(children.get(t.id) ?? []).sort((a, b) => a.id - b.id));
    out.push(...(deviceAfter.get(t.id) ?? []));
  }
  return placeGraphRows(out, graphRows);
}

/** Whether a row may have rows by base name: an event row of its own (not a counter, [All Streams] or such a row). */
export function mayGroupKernels(t: Pick<TimelineTrackInfo, 'counter' | 'sources' | 'parent' | 'events'> | undefined): boolean {
  return !!t && !t.counter && !t.sources && t.parent === undefined && t.events > 0;
}

/**
 * The tracks with their busy shares inside the statistics range
 * (timelineShares' answer): the same objects' fields replaced, the whole
 * capture's when there is no answer.
 */
export function withShares(info: TimelineInfo, shares: TimelineShares | null): TimelineInfo {
  if (!shares || shares.tracks.length !== info.tracks.length) return info;
  return {
    ...info,
    tracks: info.tracks.map((t, i) => {
      const s = shares.tracks[i];
      const halves = t.deviceRow ? { kernelShare: s.kernelShare ?? null, memoryShare: s.memoryShare ?? null } : {};
      return { ...t, share: s.share, contextShare: s.contextShare, ...halves };
    }),
    groups: (info.groups ?? []).map((g, i) => ({ ...g, share: i < shares.groups.length ? shares.groups[i] : g.share })),
  };
}

/** A time span (absolute ns) as the --filter-time value, in ns from the capture start (the time zero). */
export function filterTimeOf(start: bigint, end: bigint, captureStart: bigint | null): string {
  const base = timeZeroOf(captureStart);
  return `${start - base}/${end - base}`;
}

/** A share of a parent's busy time with one decimal: 0.857 -> "85.7%". */
export function shareText(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** A group's heading: "PPU 0 (PPU-ZW810E) — 48.2%" (its share of every PPU's / process's busy time). */
export function groupLabel(name: string, share: number | null | undefined): string {
  return share == null ? name : `${name} — ${shareText(share)}`;
}

/** A counter's value with its unit: bytes exactly, digits grouped as formatInt groups them ("1 536 B (1.5 KiB)"), others to 4 significant digits. */
export function counterValueText(v: bigint | number, unit: string, exact = true): string {
  if (typeof v === 'bigint') {
    if (unit !== 'B') return `${formatInt(v)} ${unit}`.trim();
    const n = Number(v);
    if (!exact) return n < 1024 ? `${v} B` : formatBytes(n);
    return n < 1024 ? `${formatInt(v)} B` : `${formatInt(v)} B (${formatBytes(n)})`;
  }
  if (Number.isNaN(v)) return 'no value';
  const a = Math.abs(v);
  const text = a !== 0 && (a >= 1e6 || a < 1e-3) ? v.toExponential(3) : String(Number(v.toPrecision(4)));
  return `${text} ${unit}`.trim();
}

/** A counter's axis max with its unit: "max 1.5 GiB", "max 98.65 %" ("" when it has no value). */
export function counterMaxText(c: CounterInfo): string {
  return c.max == null ? '' : `max ${counterValueText(c.max, c.unit, false)}`;
}

/**
 * A track's label: "Stream 7 — 62.0%" (its share of its group's busy time);
 * a counter's "Memory in use · max 1.5 GiB" (its axis max and unit).
 */
export function trackLabel(track: TimelineTrackInfo): string {
  const c: CounterInfo | null | undefined = track.counter;
  if (c) return c.max == null ? track.label : `${track.label} · ${counterMaxText(c)}`;
  return track.share == null ? track.label : `${track.label} — ${shareText(track.share)}`;
}

/** The step of a counter window in force at `t` (absolute ns), or -1 before the first. */
export function stepAt(s: CounterSteps, t: bigint): number {
  let lo = 0, hi = s.time.length; // the first step after t
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s.time[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** A step's value for a tooltip: "150 B", or "50 – 150 B" where steps merged at this zoom. */
export function stepText(s: CounterSteps, k: number, unit: string, words: StepWords = ENGLISH_STEP_WORDS): string {
  const a = s.min[k], b = s.max[k];
  if (a === b) return counterValueText(a, unit);
  if (typeof a === 'number' && Number.isNaN(a)) return words.noValue;
  return words.merged(`${counterValueText(a, unit)} – ${counterValueText(b, unit)}`);
}

/** The words of a counter's value text, in the interface's language. */
export interface StepWords {
  noValue: string;
  /** A pixel's min – max range, merged at this zoom. */
  merged: (range: string) => string;
}
export const ENGLISH_STEP_WORDS: StepWords = { noValue: 'no value', merged: (range) => `${range} (merged at this zoom)` };

/**
 * A memcpy's colour by its direction, as Nsight Systems tells them apart:
 * read from its name, which the engine builds from the copy kind
 * ("Memcpy HtoD (device)", core/rules/memory_ops.h MemcpyNames). Undefined
 * for a name with no known direction (the memcpy colour then).
 */
export const MEMCPY_COLORS: Record<string, string> = {
  HtoD: '#59a14f',
  DtoH: '#d37295',
  DtoD: '#499894',
  PtoP: '#a0cbe8',
  HtoH: '#86bcb6',
};

export function memcpyColor(name: string): string | undefined {
  const direction = /^Memcpy (\w+) /.exec(name + ' ')?.[1];
  return direction === undefined ? undefined : MEMCPY_COLORS[direction];
}

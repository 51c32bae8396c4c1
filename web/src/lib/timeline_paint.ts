// The timeline canvas's picture, drawn from a plain model onto a 2D context
// (the page's canvas, or a test's recording fake): track labels on the left,
// the window's merged slices per lane, counter tracks as filled step charts,
// the selected event's links, the statistics range (outside it greyed), a
// highlighted span, a dragged selection, and the time axis along the top.
// Only the rows in view are drawn: the canvas is the scroll box's height and
// paints the rows from `scrollTop` down, under the axis.
import type { TimelineEvent, TimelineRelated, TimelineWindowSlices } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import type { PaintContext } from './paint_context';
import {
  AXIS_HEIGHT,
  CONTEXT_HEADING,
  GROUP_HEADING,
  LABEL_WIDTH,
  LANE_HEIGHT,
  counterMaxText,
  groupLabel,
  memcpyColor,
  plotScale,
  axisTicks,
  rowsIn,
  sourceEventOf,
  trackLabel,
  type PickedSlice,
  type PlotScale,
  type TrackRow,
  type Viewport,
} from './timeline';
import { drawRelated } from './timeline_links_paint';
import { displaySliceName } from './display_names';
import { zeroShift } from './time_zero';
import { PAGEABLE_VEIL, isPageable } from './device_row';
import { histogramBands, paintOccupancy } from './occupancy';

export const SLICE_COLORS: Record<(typeof SLICE_KINDS)[number], string> = {
  kernel: '#4e79a7',
  memcpy: '#59a14f',
  memset: '#76b7b2',
  api: '#9c755f',
  apiError: '#e15759',
  hgtx: '#f28e2b',
  osrt: '#bab0ac',
  pcclKernel: '#b07aa1',
  pcclStage: '#ff9da7',
  projection: '#edc948',
  hgtxStartEnd: '#e8a04c',
  allocFailure: '#c0392b',
  graphLaunch: '#8cd17d',
};
export const COUNTER_COLOR = '#8c6bb1';
/** A slice of the name a table row marked: outlined in this. */
export const MARK_COLOR = '#d9a400';
/** The picked slice's outline. */
export const PICKED_COLOR = '#111';
export const RANGE_SHADE = 'rgba(120, 128, 140, 0.25)';
export const HIGHLIGHT_FILL = 'rgba(255, 196, 0, 0.22)';
export const SELECTION_FILL = 'rgba(78, 121, 167, 0.18)';
export const SELECTION_LINE = '#4e79a7';
/** Slices fainter than this while another name is marked. */
export const UNMARKED_ALPHA = 0.25;
/** A slice wider than this (px) carries its name. */
export const LABELLED_WIDTH = 40;
const FONT = '11px sans-serif';

/** The page's theme colours the canvas takes (components/chartColors reads them from CSS). */
export interface TimelineColors {
  text: string;
  text2: string;
  text3: string;
  line: string;
  subtle: string;
  rowAlt: string;
}

export interface TimelinePaintModel {
  /** The canvas's size in CSS px: its whole width, and the painted height (axis and the rows in view). */
  width: number;
  height: number;
  /** The layout's y at the top of the painted rows (the scroll box's scroll offset). */
  scrollTop: number;
  viewport: Viewport;
  /** Offsets are from this origin (absolute ns). */
  origin: bigint;
  /** The report's time zero (absolute ns, its capture start): the axis counts from it. */
  zero: bigint;
  /** The events' end (absolute ns): counters are drawn until it. */
  last: bigint;
  /** Every row of the layout, in top order, and the same by track id (a link's arrow may lead out of view). */
  rows: TrackRow[];
  rowOf: ReadonlyMap<number, TrackRow>;
  /** A group's share of every group's busy time, by group name. */
  groupShare: ReadonlyMap<string, number | null>;
  slices: TimelineWindowSlices | null;
  /** The report's statistics range, absolute ns (null sides open). */
  range: [bigint | null, bigint | null] | null;
  /** A span marked from a table row, absolute ns. */
  highlight: [bigint, bigint] | null;
  /** Slices of this name are drawn as they are, every other one faded. */
  highlightName: string | null;
  picked: PickedSlice | null;
  /** A dragged range, offsets (ns). */
  selection: [number, number] | null;
  /** The selected event and its linked events, outlined. */
  related: TimelineRelated | null;
  /** An event a table row showed (found by identity): outlined as itself, every other slice faded. */
  spotlight?: TimelineEvent | null;
  colors: TimelineColors;
}

/** What a paint drew, for the page's test hooks: slices, marked slices, linked events in the plot, counter steps. */
export interface PaintCounts {
  slices: number;
  marked: number;
  /** Slices drawn that are the spotlit event (0 or 1), and slices faded for it. */
  spotlit: number;
  dimmed: number;
  related: number;
  counterSteps: number;
  /** Rows drawn as occupancy histograms (lib/occupancy.ts). */
  histograms: number;
}

/** `text` cut with an ellipsis to fit `width` px ("" when not even a letter fits). */
export function fitText(g: PaintContext, text: string, width: number): string {
  if (g.measureText(text).width <= width) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.measureText(text.slice(0, mid) + '…').width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo) + '…';
}

/** Draws the model onto `g` (its transform already set to CSS px). */
export function paint(g: PaintContext, m: TimelinePaintModel): PaintCounts {
  const { width, height } = m;
  g.clearRect(0, 0, width, height);
  g.font = FONT;
  g.textBaseline = 'middle';
  const scale = plotScale(m.viewport, width);
  const tickAt = axisTicks(m.viewport, scale.plot, zeroShift(m.origin, m.zero));
  const tickXs = tickAt.offsets.map(scale.toPx);
  // Rows at y0 + their layout top; only those in view (below the axis).
  const y0 = AXIS_HEIGHT - m.scrollTop;
  const shown = rowsIn(m.rows, m.scrollTop, m.scrollTop + height - AXIS_HEIGHT);
  g.strokeStyle = m.colors.line;
  for (const x of tickXs) line(g, x, AXIS_HEIGHT, x, height);
  g.save();
  clipTo(g, 0, AXIS_HEIGHT, width, height - AXIS_HEIGHT);
  paintTrackLabels(g, m, shown, y0, scale.plot);
  clipTo(g, LABEL_WIDTH, AXIS_HEIGHT, scale.plot, height - AXIS_HEIGHT);
  const { slices, marked, spotlit, dimmed, histograms } = paintSlices(g, m, shown, y0, scale);
  const counterSteps = paintCounters(g, m, shown, y0, scale);
  const related = m.related ? drawRelated(g, m.related, m.rowOf, scale.toPx, m.origin, y0, LABEL_WIDTH, width) : 0;
  if (m.spotlight) paintSpotlight(g, m, m.spotlight, y0, scale);
  paintSpans(g, m, scale);
  g.restore();
  paintAxis(g, m, tickAt.labels, tickXs);
  return { slices, marked, spotlit, dimmed, related, counterSteps, histograms };
}

function line(g: PaintContext, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
}

function clipTo(g: PaintContext, x: number, y: number, w: number, h: number): void {
  g.beginPath();
  g.rect(x, y, w, h);
  g.clip();
}

/** Each row's headings and label left of the plot, and its band across the plot. */
function paintTrackLabels(g: PaintContext, m: TimelinePaintModel, shown: TrackRow[], y0: number, plot: number): void {
  const { colors } = m;
  for (const r of shown) {
    if (r.groupStart) {
      g.fillStyle = colors.text;
      g.font = '600 11.5px sans-serif';
      g.fillText(fitText(g, groupLabel(r.track.group, m.groupShare.get(r.track.group)), LABEL_WIDTH + plot - 12), 6, y0 + r.headTop + GROUP_HEADING / 2);
      g.font = FONT;
    }
    if (r.contextStart) {
      g.fillStyle = colors.text2;
      g.font = '600 11px sans-serif';
      g.fillText(fitText(g, groupLabel(r.track.context ?? '', r.track.contextShare), LABEL_WIDTH - 16), 10, y0 + r.top - CONTEXT_HEADING / 2);
      g.font = FONT;
    }
    g.fillStyle = colors.text3;
    if (r.track.counter) {
      // Two lines: a metric's name is long, its axis max must still show.
      g.fillText(fitText(g, r.track.label, LABEL_WIDTH - 20), 14, y0 + r.top + 8);
      g.fillText(fitText(g, counterMaxText(r.track.counter), LABEL_WIDTH - 28), 22, y0 + r.top + 21);
    } else {
      // A context's streams indented under its heading; the PPU's own rows after them are not.
      const x = r.track.context ? 22 : 14;
      g.fillText(fitText(g, trackLabel(r.track), LABEL_WIDTH - 6 - x), x, y0 + r.top + LANE_HEIGHT / 2);
    }
    g.fillStyle = colors.rowAlt;
    g.fillRect(LABEL_WIDTH, y0 + r.top, plot, r.height);
  }
}

/**
 * The window's slices of the rows in view, at least 1 px wide (the engine
 * merged what is closer than a pixel): filled in their kind's colour (a
 * memcpy in its direction's), named when wider than LABELLED_WIDTH, faded
 * when another name is marked, outlined when marked or picked.
 */
function paintSlices(g: PaintContext, m: TimelinePaintModel, shown: TrackRow[], y0: number, scale: PlotScale) {
  let slices = 0, marked = 0, spotlit = 0, dimmed = 0, histograms = 0;
  const names = m.slices?.names ?? [];
  const { highlightName, picked, width, origin } = m;
  const spot = m.spotlight ?? null;
  const inView = new Set(shown.map((r) => r.track.id));
  // A memcpy's colour is its direction's: found once per name of the window.
  const memcpyColorOf = new Map<number, string>();
  const fillOf = (kind: number, name: number) => {
    const base = SLICE_COLORS[SLICE_KINDS[kind] ?? 'kernel'];
    if (SLICE_KINDS[kind] !== 'memcpy') return base;
    let c = memcpyColorOf.get(name);
    if (c === undefined) memcpyColorOf.set(name, (c = memcpyColor(names[name] ?? '') ?? base));
    return c;
  };
  for (const s of m.slices?.tracks ?? []) {
    const r = m.rowOf.get(s.id);
    if (!r || !inView.has(s.id)) continue;
    // A merged row ([All Streams]) shows its streams' events: the spotlit
    // one stays lit there too, counted once (on its own row).
    const merged = !!r.track.sources;
    const trackOf = (id: number) => m.rowOf.get(id)?.track;
    const isSpotAt = (i: number) => {
      if (spot === null) return false;
      if (!merged) return spot.track === s.id && spot.event === s.event[i];
      const e = sourceEventOf(trackOf, s.id, s.event[i]);
      return e !== null && e.track === spot.track && e.event === spot.event;
    };
    // More events than pixels: the row's busy fraction per pixel, as bars
    // (faded while a name is marked or an event spotlit); its slices stay
    // under them, only a marked, spotlit or picked one drawn and outlined.
    const histogram = s.occupancy;
    if (histogram) {
      histograms++;
      g.globalAlpha = spot || highlightName !== null ? UNMARKED_ALPHA : 1;
      const color = SLICE_COLORS[SLICE_KINDS[s.kind[0]] ?? 'kernel'] ?? SLICE_COLORS.kernel;
      // A device row: its kernels' bars on its upper lane, its memory operations' on its lower.
      for (const band of histogramBands(histogram, y0 + r.top + 1, r.height - 2, LANE_HEIGHT))
        paintOccupancy(g, band.occupancy, band.top, band.height, scale, origin, band.kind ? SLICE_COLORS[band.kind] : color);
      g.globalAlpha = 1;
    }
    for (let i = 0; i < s.lane.length; i++) {
      const x0 = scale.toPx(Number(s.start[i] - origin));
      const x1 = Math.max(scale.toPx(Number(s.end[i] - origin)), x0 + 1);
      if (x1 < LABEL_WIDTH || x0 > width) continue;
      const y = y0 + r.top + s.lane[i] * LANE_HEIGHT + 1;
      const isMarked = highlightName !== null && names[s.name[i]] === highlightName;
      const isSpot = isSpotAt(i);
      const faded = spot ? !isSpot : highlightName !== null && !isMarked;
      if (isSpot && !merged) spotlit++;
      else if (faded) dimmed++;
      slices++;
      if (histogram && !isMarked && !isSpot) {
        if (picked && picked.track === s.id && picked.index === i) outline(g, PICKED_COLOR, x0, y, x1 - x0);
        continue;
      }
      g.globalAlpha = faded ? UNMARKED_ALPHA : 1;
      g.fillStyle = fillOf(s.kind[i], s.name[i]);
      g.fillRect(x0, y, x1 - x0, LANE_HEIGHT - 2);
      // A device row's copy from or to pageable host memory: its lower half pale (lib/device_row.ts).
      if (s.memKind && isPageable(s.memKind[i])) {
        g.fillStyle = PAGEABLE_VEIL;
        g.fillRect(x0, y + (LANE_HEIGHT - 2) / 2, x1 - x0, (LANE_HEIGHT - 2) / 2);
      }
      g.globalAlpha = 1;
      if (isMarked) {
        marked++;
        outline(g, MARK_COLOR, x0, y, x1 - x0);
      }
      if (x1 - x0 > LABELLED_WIDTH) {
        const left = Math.max(x0, LABEL_WIDTH) + 3;
        // A graph launch reads as its row (the label in the page's language).
        const kindName = SLICE_KINDS[s.kind[i]];
        const shownName = kindName === 'graphLaunch' ? r.track.label : displaySliceName(names[s.name[i]] ?? '', kindName);
        const text = fitText(g, shownName, Math.min(x1, width) - left - 3);
        if (text) {
          g.fillStyle = '#fff';
          g.fillText(text, left, y + (LANE_HEIGHT - 2) / 2);
        }
      }
      if (picked && picked.track === s.id && picked.index === i) outline(g, PICKED_COLOR, x0, y, x1 - x0);
    }
  }
  return { slices, marked, spotlit, dimmed, histograms };
}

/**
 * The spotlit event's outline, drawn from its own start and end on its own
 * lane (so it shows even where the window merged it into a longer slice),
 * at least 3 px wide; nothing when its row is out of view.
 */
function paintSpotlight(g: PaintContext, m: TimelinePaintModel, e: TimelineEvent, y0: number, scale: PlotScale): void {
  const r = m.rowOf.get(e.track);
  if (!r) return;
  const x0 = scale.toPx(Number(e.start - m.origin));
  const x1 = Math.max(scale.toPx(Number(e.end - m.origin)), x0 + 3);
  if (x1 < LABEL_WIDTH || x0 > m.width) return;
  outline(g, MARK_COLOR, x0, y0 + r.top + e.lane * LANE_HEIGHT + 1, x1 - x0);
}

/** A slice's 2 px outline. */
function outline(g: PaintContext, color: string, x: number, y: number, w: number): void {
  g.strokeStyle = color;
  g.lineWidth = 2;
  g.strokeRect(x, y, w, LANE_HEIGHT - 2);
  g.lineWidth = 1;
}

/**
 * Counters in view: filled step charts up to each step's max (lighter) and
 * min, scaled to the track's axis max, drawn until the events' end.
 * Returns the steps drawn.
 */
function paintCounters(g: PaintContext, m: TimelinePaintModel, shown: TrackRow[], y0: number, scale: PlotScale): number {
  const { toPx } = scale;
  const stepsOf = new Map((m.slices?.counters ?? []).map((c) => [c.id, c]));
  let steps = 0;
  const endPx = toPx(Number(m.last - m.origin));
  for (const r of shown) {
    const c = r.track.counter;
    const s = stepsOf.get(r.track.id);
    const axisMax = c?.max == null ? 0 : Number(c.max);
    if (!c || !s || !(axisMax > 0)) continue;
    const base = y0 + r.top + r.height - 1;
    const h = r.height - 3;
    const up = (v: number) => Math.max(0, Math.min(1, v / axisMax)) * h;
    g.fillStyle = COUNTER_COLOR;
    for (let k = 0; k < s.time.length; k++) {
      const x0 = Math.max(LABEL_WIDTH, toPx(Number(s.time[k] - m.origin)));
      const x1 = Math.min(m.width, k + 1 < s.time.length ? toPx(Number(s.time[k + 1] - m.origin)) : endPx);
      const hi = Number(s.max[k]), lo = Number(s.min[k]);
      if (x1 <= x0 || Number.isNaN(hi)) continue;
      g.globalAlpha = 0.45;
      g.fillRect(x0, base - up(hi), x1 - x0, up(hi));
      g.globalAlpha = 1;
      g.fillRect(x0, base - up(lo), x1 - x0, up(lo));
      steps++;
    }
  }
  return steps;
}

/** The full-height spans over the plot: outside the statistics range greyed, the highlighted span, the dragged selection. */
function paintSpans(g: PaintContext, m: TimelinePaintModel, { toPx }: PlotScale): void {
  const { range, highlight, selection, width, height, origin } = m;
  if (range) {
    g.fillStyle = RANGE_SHADE;
    if (range[0] !== null) {
      const x = toPx(Number(range[0] - origin));
      if (x > LABEL_WIDTH) g.fillRect(LABEL_WIDTH, 0, x - LABEL_WIDTH, height);
    }
    if (range[1] !== null) {
      const x = toPx(Number(range[1] - origin));
      if (x < width) g.fillRect(Math.max(x, LABEL_WIDTH), 0, width - Math.max(x, LABEL_WIDTH), height);
    }
  }
  if (highlight) {
    const x0 = toPx(Number(highlight[0] - origin)), x1 = Math.max(toPx(Number(highlight[1] - origin)), x0 + 2);
    band(g, HIGHLIGHT_FILL, MARK_COLOR, x0, x1, height);
  }
  if (selection) band(g, SELECTION_FILL, SELECTION_LINE, toPx(selection[0]), toPx(selection[1]), height);
}

function band(g: PaintContext, fill: string, stroke: string, x0: number, x1: number, height: number): void {
  g.fillStyle = fill;
  g.fillRect(x0, 0, x1 - x0, height);
  g.strokeStyle = stroke;
  g.strokeRect(x0, 0, x1 - x0, height);
}

/** The axis band along the top of the view whatever the scroll: a label and a tick line per tick. */
function paintAxis(g: PaintContext, m: TimelinePaintModel, labels: string[], tickXs: number[]): void {
  g.fillStyle = m.colors.subtle;
  g.fillRect(0, 0, m.width, AXIS_HEIGHT);
  g.fillStyle = m.colors.text2;
  labels.forEach((label, k) => {
    g.fillText(label, tickXs[k] + 3, AXIS_HEIGHT / 2);
    line(g, tickXs[k], 0, tickXs[k], AXIS_HEIGHT);
  });
}

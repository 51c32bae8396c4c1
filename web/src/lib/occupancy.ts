// Occupancy histograms (core/timeline/occupancy.h): where a row's window
// holds more events than pixels, the engine gives each pixel column's busy
// fraction (the union of the row's events inside it, exact), and the row is
// drawn as bars of that height instead of its merged slices. The slices
// stay underneath: a click still picks one, a marked or spotlit one is
// still outlined. Pure: the drawing and the value at a time.
import type { TrackOccupancy } from '../engine/timeline_types';
import type { PaintContext } from './paint_context';
import type { PlotScale } from './timeline';

/** Pixel column j's start (absolute ns): from + (to - from) * j / n, rounded down as the engine rounds it. */
export function columnEdge(o: TrackOccupancy, j: number): bigint {
  const n = BigInt(o.values.length);
  return o.from + ((o.to - o.from) * BigInt(j)) / n;
}

/** The column whose span holds time `t` (absolute ns), or -1 outside the columns. */
export function columnAt(o: TrackOccupancy, t: bigint): number {
  if (t < o.from || t >= o.to || o.values.length === 0) return -1;
  // Edges are increasing, so a guess then a step.
  let j = Number(((t - o.from) * BigInt(o.values.length)) / (o.to - o.from));
  j = Math.min(Math.max(j, 0), o.values.length - 1);
  while (j > 0 && columnEdge(o, j) > t) j--;
  while (j + 1 < o.values.length && columnEdge(o, j + 1) <= t) j++;
  return j;
}

/**
 * The busy fraction at time `t` (absolute ns), or null outside the columns.
 * On a device row (`lower` given) lane 0 reads its kernels' half, lane 1
 * its memory operations'.
 */
export function occupancyAt(o: TrackOccupancy, t: bigint, lane = 0): number | null {
  const j = columnAt(o, t);
  if (j < 0) return null;
  return lane >= 1 && o.lower ? (o.lower[j] ?? null) : o.values[j];
}

/**
 * The bands a row's histogram is drawn in: the whole row (top, height), or
 * on a device row its kernels over its lane 0 and its memory operations
 * over its lane 1 (each `laneHeight` tall), each with its kind's colour key.
 */
export function histogramBands(
  o: TrackOccupancy,
  top: number,
  height: number,
  laneHeight: number,
): { occupancy: TrackOccupancy; top: number; height: number; kind: 'kernel' | 'memcpy' | null }[] {
  if (!o.lower) return [{ occupancy: o, top, height, kind: null }];
  return [
    { occupancy: { from: o.from, to: o.to, values: o.values }, top, height: laneHeight - 2, kind: 'kernel' },
    { occupancy: { from: o.from, to: o.to, values: o.lower }, top: top + laneHeight, height: laneHeight - 2, kind: 'memcpy' },
  ];
}

/**
 * The bars of a row `height` px tall whose top is `top`: runs of columns of
 * one value drawn as one rect, bottom-aligned, `value * height` tall, in
 * `color`; nothing for idle columns. Returns the rects drawn.
 */
export function paintOccupancy(
  g: PaintContext,
  o: TrackOccupancy,
  top: number,
  height: number,
  scale: PlotScale,
  origin: bigint,
  color: string,
): number {
  const n = o.values.length;
  const x = (j: number) => scale.toPx(Number(columnEdge(o, j) - origin));
  g.fillStyle = color;
  let rects = 0;
  for (let j = 0; j < n; ) {
    const v = o.values[j];
    let k = j + 1;
    while (k < n && o.values[k] === v) k++;
    if (v > 0) {
      const h = Math.max(1, v * height);
      const x0 = x(j);
      g.fillRect(x0, top + height - h, Math.max(1, x(k) - x0), h);
      rects++;
    }
    j = k;
  }
  return rects;
}

// Draws a selected event's links on the timeline canvas: each linked event
// outlined at its own place (its track, lane and exact times, so it shows
// also where a merged slice carries another event's name), the selected
// event outlined in black, and an arrow from each launching call to the
// activity it launched.
import type { TimelineEvent, TimelineRelated } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import type { PaintContext } from './paint_context';
import { LANE_HEIGHT, type TrackRow } from './timeline';

const LINK = '#d6336c';
/** Arrows beyond these (a graph launch of thousands) would only hide the rows. */
const MAX_ARROWS = 200;
// Far outside the plot, coordinates are clamped: the canvas clips them anyway.
const clampX = (x: number) => Math.max(-1e5, Math.min(1e5, x));

interface Box {
  x0: number;
  x1: number;
  y: number;
}

/** Returns how many linked events are outlined inside the plot [left, width). */
export function drawRelated(
  g: PaintContext,
  links: TimelineRelated,
  rowOf: ReadonlyMap<number, TrackRow>,
  toPx: (offset: number) => number,
  origin: bigint,
  y0: number,
  left: number,
  width: number,
): number {
  const box = (e: TimelineEvent): Box | null => {
    const r = rowOf.get(e.track);
    if (!r) return null;
    const x0 = clampX(toPx(Number(e.start - origin)));
    const x1 = Math.max(clampX(toPx(Number(e.end - origin))), x0 + 2);
    return { x0, x1, y: y0 + r.top + e.lane * LANE_HEIGHT + 1 };
  };
  const kind = SLICE_KINDS[links.selected.kind];
  const selectedIsCall = kind === 'api' || kind === 'apiError';
  const self = box(links.selected);
  g.save();
  let inside = 0;
  const boxes: Box[] = [];
  g.strokeStyle = LINK;
  g.lineWidth = 2;
  for (const e of links.related) {
    const b = box(e);
    if (!b) continue;
    boxes.push(b);
    g.strokeRect(b.x0 - 1, b.y - 1, b.x1 - b.x0 + 2, LANE_HEIGHT);
    if (b.x1 >= left && b.x0 < width) inside++;
  }
  if (self) {
    g.strokeStyle = '#111';
    g.strokeRect(self.x0 - 1, self.y - 1, self.x1 - self.x0 + 2, LANE_HEIGHT);
    g.strokeStyle = LINK;
    g.fillStyle = LINK;
    g.lineWidth = 1.5;
    g.globalAlpha = 0.85;
    for (const b of boxes.slice(0, MAX_ARROWS)) {
      const [from, to] = selectedIsCall ? [self, b] : [b, self];
      arrow(g, from.x0, from.y + (LANE_HEIGHT - 2) / 2, to.x0, to.y + (LANE_HEIGHT - 2) / 2);
    }
  }
  g.restore();
  return inside;
}

function arrow(g: PaintContext, x0: number, y0: number, x1: number, y1: number): void {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.stroke();
  const a = Math.atan2(y1 - y0, x1 - x0);
  g.beginPath();
  g.moveTo(x1, y1);
  g.lineTo(x1 - 7 * Math.cos(a - 0.4), y1 - 7 * Math.sin(a - 0.4));
  g.lineTo(x1 - 7 * Math.cos(a + 0.4), y1 - 7 * Math.sin(a + 0.4));
  g.closePath();
  g.fill();
}

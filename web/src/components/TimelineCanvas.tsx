// The timeline's canvas: track labels on the left, the window's merged
// slices per lane, the time axis, the statistics range (outside it greyed),
// a highlighted span, the selected slice and a dragged selection. Counter
// tracks (memory in use, PPU metrics) are filled step charts; labels carry
// each node's share of its parent's busy time, or a counter's axis max.
// Wheel zooms around the pointer (horizontal wheel or Shift pans), W/S zoom
// and A/D pan as in Perfetto, a drag selects a range, a click a slice.
// The selected event's linked events (an API call's launched activities, an
// activity's launching call) are outlined, an arrow from each call to its
// activity.
// Only what is in view is drawn: the canvas is as tall as the scroll box and
// stays at its top (sticky, the time axis along its top edge), painting the
// rows under it; a transparent layer as tall as every row takes the pointer,
// so its coordinates are the layout's whatever the scroll.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimelineInfo, TimelineRelated, TimelineWindowSlices } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import { formatDurationNs, formatInt } from '../lib/format';
import {
  counterMaxText,
  memcpyColor,
  GROUP_HEADING,
  CONTEXT_HEADING,
  LANE_HEIGHT,
  groupLabel,
  panBy,
  rowsIn,
  sliceAt,
  stepAt,
  stepText,
  tickLabel,
  ticks,
  trackLabel,
  zoomAround,
  type TrackLayout,
  type Viewport,
} from '../lib/timeline';
import { useTheme } from '../state/theme';
import { chartColors } from './chartColors';
import { drawRelated } from './timelineLinksDraw';
import { frameMark, frameMarksOn, frameMeasure } from '../lib/frame_marks';

export const LABEL_WIDTH = 230;
const AXIS_HEIGHT = 24;
const COLORS: Record<(typeof SLICE_KINDS)[number], string> = {
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
};
const COUNTER_COLOR = '#8c6bb1';

/** `text` cut with an ellipsis to fit `width` px ("" when not even a letter fits). */
function fitText(g: CanvasRenderingContext2D, text: string, width: number): string {
  if (g.measureText(text).width <= width) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (g.measureText(text.slice(0, mid) + '…').width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : text.slice(0, lo) + '…';
}

/** A slice picked by a click: which track, which of the window's slices. */
export interface PickedSlice {
  track: number;
  index: number;
}

interface Props {
  info: TimelineInfo;
  /** Offsets are from this origin (ns). */
  origin: bigint;
  viewport: Viewport;
  onViewport: (v: Viewport) => void;
  /** The slices to draw (of a window that may lag the viewport a frame). */
  slices: TimelineWindowSlices | null;
  /** The width in px the slices should be asked for. */
  onWidth: (px: number) => void;
  /** The report's statistics range, absolute ns (null sides open). */
  range: [bigint | null, bigint | null] | null;
  highlight: [bigint, bigint] | null;
  /** Slices of this name are drawn as they are, every other one faded. */
  highlightName?: string | null;
  picked: PickedSlice | null;
  onPick: (p: PickedSlice | null) => void;
  selection: [number, number] | null;
  onSelection: (s: [number, number] | null) => void;
  /** The selected event and its linked events, outlined. */
  related?: TimelineRelated | null;
  /** The tracks stacked (layoutTracks of info.tracks), as the view asks for the rows in view. */
  layout: TrackLayout;
  /** The scroll box's scroll offset and visible height, px: what to paint. */
  scrollTop: number;
  viewHeight: number;
}

export function TimelineCanvas(props: Props) {
  const { info, origin, viewport, onViewport, slices, onWidth, range, highlight, picked, onPick, selection, onSelection, layout } = props;
  const highlightName = props.highlightName ?? null;
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pointer = useRef<HTMLDivElement>(null);
  // Drawn again in the new theme's colours.
  const { theme } = useTheme();
  const [width, setWidth] = useState(800);
  const [hover, setHover] = useState<{ x: number; y: number; text: string } | null>(null);
  const extent = Number(info.last - origin);
  // Every row: a link's arrow may lead to one out of view.
  const rowOf = useMemo(() => new Map(layout.rows.map((r) => [r.track.id, r])), [layout]);
  const groupShare = new Map((info.groups ?? []).map((g) => [g.name, g.share]));
  const counterSteps = new Map((slices?.counters ?? []).map((c) => [c.id, c]));
  const height = layout.height + AXIS_HEIGHT;
  // The painted part: the scroll box's height of it from scrollTop.
  const scrollTop = Math.max(0, Math.min(props.scrollTop, height - 1));
  const paintHeight = Math.max(AXIS_HEIGHT + 1, Math.min(height - scrollTop, props.viewHeight || height));
  const plot = Math.max(1, width - LABEL_WIDTH);
  const toPx = (offset: number) => LABEL_WIDTH + ((offset - viewport.from) / (viewport.to - viewport.from)) * plot;
  const toOffset = (x: number) => viewport.from + ((x - LABEL_WIDTH) / plot) * (viewport.to - viewport.from);

  useLayoutEffect(() => {
    const el = box.current!;
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);
  useEffect(() => onWidth(plot), [plot, onWidth]);

  // Wheel: not passive, so the page does not scroll while zooming.
  const viewRef = useRef(viewport);
  viewRef.current = viewport;
  useEffect(() => {
    const el = pointer.current!;
    const onWheel = (e: WheelEvent) => {
      const x = e.offsetX;
      if (x < LABEL_WIDTH) return;
      e.preventDefault();
      const v = viewRef.current;
      frameMark('asys:tl-input');
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        onViewport(panBy(v, (e.shiftKey ? e.deltaY : e.deltaX) / plot, extent));
      } else {
        onViewport(zoomAround(v, (x - LABEL_WIDTH) / plot, Math.exp(e.deltaY * 0.0015), extent));
      }
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [plot, extent, onViewport]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const step = { w: ['zoom', 0.8], s: ['zoom', 1.25], a: ['pan', -0.2], d: ['pan', 0.2] }[e.key.toLowerCase()] as
      | [string, number]
      | undefined;
    if (!step) return;
    e.preventDefault();
    frameMark('asys:tl-input');
    onViewport(step[0] === 'zoom' ? zoomAround(viewport, 0.5, step[1], extent) : panBy(viewport, step[1], extent));
  };

  // The row under a y of the pointer layer (none under the axis, which stays in view).
  const rowAt = (layerY: number) => {
    if (layerY - scrollTop < AXIS_HEIGHT) return null;
    const y = layerY - AXIS_HEIGHT;
    return rowsIn(layout.rows, y, y + 1).find((r) => y >= r.top && y < r.top + r.height) ?? null;
  };
  // Which track and lane a y falls on.
  const laneAt = (layerY: number) => {
    const r = rowAt(layerY);
    return r ? { track: r.track.id, lane: Math.floor((layerY - AXIS_HEIGHT - r.top) / LANE_HEIGHT) } : null;
  };
  const hit = (x: number, y: number): PickedSlice | null => {
    const at = laneAt(y);
    const s = at && slices?.tracks.find((t) => t.id === at.track);
    if (!at || !s) return null;
    const index = sliceAt(s, at.lane, x, toPx, origin);
    return index >= 0 ? { track: at.track, index } : null;
  };

  const drag = useRef<{ x0: number; moved: boolean } | null>(null);
  const onMouseDown = (e: React.MouseEvent<HTMLDivElement>) => {
    if (e.button !== 0 || e.nativeEvent.offsetX < LABEL_WIDTH) return;
    drag.current = { x0: e.nativeEvent.offsetX, moved: false };
  };
  const onMouseMove = (e: React.MouseEvent<HTMLDivElement>) => {
    const x = e.nativeEvent.offsetX, y = e.nativeEvent.offsetY;
    const d = drag.current;
    if (d) {
      if (Math.abs(x - d.x0) > 3) d.moved = true;
      if (d.moved) {
        const a = toOffset(d.x0), b = toOffset(Math.max(LABEL_WIDTH, Math.min(width, x)));
        onSelection([Math.min(a, b), Math.max(a, b)]);
      }
      return;
    }
    // A counter: its value at the pointer's time.
    const row = x >= LABEL_WIDTH ? rowAt(y) : null;
    const counter = row?.track.counter;
    if (row && counter) {
      const steps = counterSteps.get(row.track.id);
      if (!steps) return setHover(null);
      const offset = toOffset(x);
      const k = stepAt(steps, origin + BigInt(Math.round(offset)));
      const value = k < 0 || offset > Number(info.last - origin) ? 'no value' : stepText(steps, k, counter.unit);
      return setHover({ x, y, text: `${row.track.label}\n${value}\nat +${formatDurationNs(offset)}` });
    }
    const p = hit(x, y);
    const s = p && slices?.tracks.find((t) => t.id === p.track);
    if (!p || !s) return setHover(null);
    const dur = Number(s.end[p.index] - s.start[p.index]);
    const n = s.count[p.index];
    const at = formatDurationNs(Number(s.start[p.index] - origin));
    const text = `${slices!.names[s.name[p.index]] || '(unnamed)'}\n${formatDurationNs(dur)} at +${at}${
      n > 1 ? `\n${formatInt(n)} events merged at this zoom` : ''
    }`;
    setHover({ x, y, text });
  };
  const onMouseUp = (e: React.MouseEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved) return;
    onSelection(null);
    onPick(hit(e.nativeEvent.offsetX, e.nativeEvent.offsetY));
  };

  // Draw: when something drawn changed, not on every render (the app renders
  // again when a request starts or ends, and a paint then would hold up the
  // page's thread just as the worker's answer arrives).
  useEffect(() => {
    const paintStart = frameMarksOn() ? performance.now() : 0;
    let drawn = 0, marked = 0;
    const c = canvas.current!;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(paintHeight * dpr);
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, paintHeight);
    g.font = '11px sans-serif';
    g.textBaseline = 'middle';
    // Axis.
    const step = (() => {
      const t = ticks(viewport, plot);
      return t.length > 1 ? t[1] - t[0] : viewport.to - viewport.from;
    })();
    const colors = chartColors(box.current!);
    // Rows at y0 + their layout top; only those in view (below the axis).
    const y0 = AXIS_HEIGHT - scrollTop;
    const shown = rowsIn(layout.rows, scrollTop, scrollTop + paintHeight - AXIS_HEIGHT);
    const tickXs = ticks(viewport, plot).map(toPx);
    g.strokeStyle = colors.line;
    for (const x of tickXs) {
      g.beginPath();
      g.moveTo(x, AXIS_HEIGHT);
      g.lineTo(x, paintHeight);
      g.stroke();
    }
    g.save();
    g.beginPath();
    g.rect(0, AXIS_HEIGHT, width, paintHeight - AXIS_HEIGHT);
    g.clip();
    // Tracks.
    for (const r of shown) {
      if (r.groupStart) {
        g.fillStyle = colors.text;
        g.font = '600 11.5px sans-serif';
        g.fillText(fitText(g, groupLabel(r.track.group, groupShare.get(r.track.group)), LABEL_WIDTH + plot - 12), 6, y0 + r.headTop + GROUP_HEADING / 2);
        g.font = '11px sans-serif';
      }
      if (r.contextStart) {
        g.fillStyle = colors.text2;
        g.font = '600 11px sans-serif';
        g.fillText(fitText(g, groupLabel(r.track.context ?? '', r.track.contextShare), LABEL_WIDTH - 16), 10, y0 + r.top - CONTEXT_HEADING / 2);
        g.font = '11px sans-serif';
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
    g.beginPath();
    g.rect(LABEL_WIDTH, AXIS_HEIGHT, plot, paintHeight - AXIS_HEIGHT);
    g.clip();
    const inView = new Set(shown.map((r) => r.track.id));
    // A memcpy's colour is its direction's: found once per name of the window.
    const memcpyColorOf = new Map<number, string>();
    const fillOf = (kind: number, name: number) => {
      const base = COLORS[SLICE_KINDS[kind] ?? 'kernel'];
      if (SLICE_KINDS[kind] !== 'memcpy') return base;
      let c = memcpyColorOf.get(name);
      if (c === undefined) memcpyColorOf.set(name, (c = memcpyColor(slices!.names[name] ?? '') ?? base));
      return c;
    };
    for (const s of slices?.tracks ?? []) {
      const r = rowOf.get(s.id);
      if (!r || !inView.has(s.id)) continue;
      for (let i = 0; i < s.lane.length; i++) {
        const x0 = toPx(Number(s.start[i] - origin));
        const x1 = Math.max(toPx(Number(s.end[i] - origin)), x0 + 1);
        if (x1 < LABEL_WIDTH || x0 > width) continue;
        const y = y0 + r.top + s.lane[i] * LANE_HEIGHT + 1;
        const isMarked = highlightName !== null && slices!.names[s.name[i]] === highlightName;
        g.globalAlpha = highlightName === null || isMarked ? 1 : 0.25;
        g.fillStyle = fillOf(s.kind[i], s.name[i]);
        g.fillRect(x0, y, x1 - x0, LANE_HEIGHT - 2);
        g.globalAlpha = 1;
        drawn++;
        if (isMarked) {
          marked++;
          g.strokeStyle = '#d9a400';
          g.lineWidth = 2;
          g.strokeRect(x0, y, x1 - x0, LANE_HEIGHT - 2);
          g.lineWidth = 1;
        }
        if (x1 - x0 > 40) {
          const left = Math.max(x0, LABEL_WIDTH) + 3;
          const text = fitText(g, slices!.names[s.name[i]] ?? '', Math.min(x1, width) - left - 3);
          if (text) {
            g.fillStyle = '#fff';
            g.fillText(text, left, y + (LANE_HEIGHT - 2) / 2);
          }
        }
        if (picked && picked.track === s.id && picked.index === i) {
          g.strokeStyle = '#111';
          g.lineWidth = 2;
          g.strokeRect(x0, y, x1 - x0, LANE_HEIGHT - 2);
          g.lineWidth = 1;
        }
      }
    }
    // Counters: filled step charts up to each step's max (lighter) and min,
    // scaled to the track's axis max, drawn until the events' end.
    let steps = 0;
    const endPx = toPx(Number(info.last - origin));
    for (const r of shown) {
      const c = r.track.counter;
      const s = counterSteps.get(r.track.id);
      const axisMax = c?.max == null ? 0 : Number(c.max);
      if (!c || !s || !(axisMax > 0)) continue;
      const base = y0 + r.top + r.height - 1;
      const h = r.height - 3;
      g.fillStyle = COUNTER_COLOR;
      for (let k = 0; k < s.time.length; k++) {
        const x0 = Math.max(LABEL_WIDTH, toPx(Number(s.time[k] - origin)));
        const x1 = Math.min(width, k + 1 < s.time.length ? toPx(Number(s.time[k + 1] - origin)) : endPx);
        const hi = Number(s.max[k]), lo = Number(s.min[k]);
        if (x1 <= x0 || Number.isNaN(hi)) continue;
        const up = (v: number) => Math.max(0, Math.min(1, v / axisMax)) * h;
        g.globalAlpha = 0.45;
        g.fillRect(x0, base - up(hi), x1 - x0, up(hi));
        g.globalAlpha = 1;
        g.fillRect(x0, base - up(lo), x1 - x0, up(lo));
        steps++;
      }
    }
    const linked = props.related ? drawRelated(g, props.related, rowOf, toPx, origin, y0, LABEL_WIDTH, width) : 0;
    // The statistics range: outside it greyed.
    if (range) {
      g.fillStyle = 'rgba(120, 128, 140, 0.25)';
      if (range[0] !== null) {
        const x = toPx(Number(range[0] - origin));
        if (x > LABEL_WIDTH) g.fillRect(LABEL_WIDTH, 0, x - LABEL_WIDTH, paintHeight);
      }
      if (range[1] !== null) {
        const x = toPx(Number(range[1] - origin));
        if (x < width) g.fillRect(Math.max(x, LABEL_WIDTH), 0, width - Math.max(x, LABEL_WIDTH), paintHeight);
      }
    }
    if (highlight) {
      const x0 = toPx(Number(highlight[0] - origin)), x1 = Math.max(toPx(Number(highlight[1] - origin)), x0 + 2);
      g.fillStyle = 'rgba(255, 196, 0, 0.22)';
      g.fillRect(x0, 0, x1 - x0, paintHeight);
      g.strokeStyle = '#d9a400';
      g.strokeRect(x0, 0, x1 - x0, paintHeight);
    }
    if (selection) {
      const x0 = toPx(selection[0]), x1 = toPx(selection[1]);
      g.fillStyle = 'rgba(78, 121, 167, 0.18)';
      g.fillRect(x0, 0, x1 - x0, paintHeight);
      g.strokeStyle = '#4e79a7';
      g.strokeRect(x0, 0, x1 - x0, paintHeight);
    }
    g.restore();
    // The axis, along the top of the view whatever the scroll.
    g.fillStyle = colors.subtle;
    g.fillRect(0, 0, width, AXIS_HEIGHT);
    g.fillStyle = colors.text2;
    ticks(viewport, plot).forEach((t, k) => {
      g.fillText(tickLabel(t, step), tickXs[k] + 3, AXIS_HEIGHT / 2);
      g.beginPath();
      g.moveTo(tickXs[k], 0);
      g.lineTo(tickXs[k], AXIS_HEIGHT);
      g.stroke();
    });
    const layer = pointer.current!.dataset;
    layer.slices = String(drawn);
    layer.marked = String(marked);
    layer.related = String(linked);
    layer.counterSteps = String(steps);
    if (paintStart) frameMeasure('asys:tl-paint', paintStart);
  }, [width, paintHeight, scrollTop, viewport, slices, layout, rowOf, info, origin, range, highlight, highlightName, picked, selection, props.related, theme]);

  return (
    <div className="timeline" ref={box} style={{ height }} data-testid="timeline" data-from={viewport.from} data-to={viewport.to}>
      <canvas ref={canvas} style={{ width, height: paintHeight }} aria-hidden="true" />
      <div
        ref={pointer}
        className="timeline-pointer"
        style={{ height }}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onMouseDown={onMouseDown}
        onMouseMove={onMouseMove}
        onMouseUp={onMouseUp}
        onMouseLeave={() => {
          setHover(null);
          drag.current = null;
        }}
        aria-label="Timeline: wheel or W/S to zoom, A/D or Shift+wheel to pan, drag to select a range"
        data-testid="timeline-canvas"
      />
      {/* The rows as text, for screen readers (the canvas draws the same labels). */}
      <ul className="visually-hidden" data-testid="timeline-rows">
        {layout.rows.map((r) => (
          <li key={r.track.id} data-track={r.track.id} data-top={AXIS_HEIGHT + r.top} data-height={r.height}>
            {r.groupStart && <span data-testid="tl-group">{groupLabel(r.track.group, groupShare.get(r.track.group))}</span>}
            {r.contextStart && <span data-testid="tl-context">{groupLabel(r.track.context ?? '', r.track.contextShare)}</span>}
            <span data-testid="tl-track">{trackLabel(r.track)}</span>
          </li>
        ))}
      </ul>
      {hover && (
        <div className="timeline-tip" style={{ left: hover.x + 12, top: hover.y + 12 }} role="tooltip" data-testid="timeline-tip">
          {hover.text}
        </div>
      )}
    </div>
  );
}

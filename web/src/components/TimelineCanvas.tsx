// The timeline's canvas and its pointer: what it draws is lib/timeline_paint's
// (track labels on the left, the window's merged slices per lane, the time
// axis, the statistics range, a highlighted span, the selected slice and a
// dragged selection, counter tracks as step charts); this component sizes
// the canvas, builds the paint model and handles the input.
// Wheel zooms around the pointer (horizontal wheel or Shift pans), W/S zoom
// and A/D pan as in Perfetto, a drag selects a range, a click a slice.
// Only what is in view is drawn: the canvas is as tall as the scroll box and
// stays at its top (sticky, the time axis along its top edge), painting the
// rows under it; a transparent layer as tall as every row takes the pointer,
// so its coordinates are the layout's whatever the scroll.
import { memKindsOf } from '../lib/device_row';
import { columnAt, columnEdge, occupancyAt } from '../lib/occupancy';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimelineEvent, TimelineInfo, TimelineRelated, TimelineWindowSlices } from '../engine/timeline_types';
import { SLICE_KINDS } from '../engine/timeline_types';
import { hostEventLines } from '../lib/host_rows';
import { graphLaunchLines } from '../lib/graph_rows';
import { displaySliceName } from '../lib/display_names';
import { formatDurationNs, formatInt } from '../lib/format';
import {
  AXIS_HEIGHT,
  LABEL_WIDTH,
  LANE_HEIGHT,
  groupLabel,
  panBy,
  plotScale,
  rowsIn,
  shareText,
  sliceAt,
  stepAt,
  stepText,
  trackLabel,
  zoomAround,
  type PickedSlice,
  type TrackLayout,
  type Viewport,
} from '../lib/timeline';
import { paint } from '../lib/timeline_paint';
import { navActionFor } from '../lib/timeline_nav';
import { OWN_KEYS } from '../lib/shortcuts';
import { useLang } from '../i18n/lang';
import { useTheme } from '../state/theme';
import { chartColors } from './chartColors';
import { frameMark, frameMarksOn, frameMeasure } from '../lib/frame_marks';
import { absoluteAt, formatAtSinceZero } from '../lib/time_zero';

interface Props {
  info: TimelineInfo;
  /** Offsets are from this origin (ns). */
  origin: bigint;
  /** The report's time zero (its capture start, absolute ns): every time shown counts from it. */
  zero: bigint;
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
  /** An event a table row showed: outlined as itself, every other slice faded. */
  spotlight?: TimelineEvent | null;
  /** The tracks stacked (layoutTracks of info.tracks), as the view asks for the rows in view. */
  layout: TrackLayout;
  /** A zoom Backspace undoes (the keys' +/-), where onViewport is a plain move (pans, the wheel). */
  onZoom: (v: Viewport) => void;
  /** Backspace, Z and F pressed on the timeline. */
  onCommand: (kind: 'back' | 'zoomToSelection' | 'filterToSelection') => void;
  /** A right-click at page point (x, y), on the slice under it (null: none), on the row (track id) under it (its label too; null: none). */
  onMenu: (x: number, y: number, at: PickedSlice | null, track: number | null) => void;
  /** The scroll box's scroll offset and visible height, px: what to paint. */
  scrollTop: number;
  viewHeight: number;
}

export function TimelineCanvas(props: Props) {
  const { info, origin, viewport, onViewport, slices, onWidth, range, highlight, picked, onPick, selection, onSelection, layout } = props;
  const highlightName = props.highlightName ?? null;
  const { t } = useLang();
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const pointer = useRef<HTMLDivElement>(null);
  // Drawn again in the new theme's colours.
  const { theme } = useTheme();
  const [width, setWidth] = useState(800);
  // `column`: over a histogram row, the pointer's pixel column (absolute ns) and its busy fraction (for tests).
  const [hover, setHover] = useState<{ x: number; y: number; text: string; column?: { from: bigint; to: bigint; busy: number } } | null>(
    null,
  );
  const extent = Number(info.last - origin);
  // Every row: a link's arrow may lead to one out of view.
  const rowOf = useMemo(() => new Map(layout.rows.map((r) => [r.track.id, r])), [layout]);
  const groupShare = new Map((info.groups ?? []).map((g) => [g.name, g.share]));
  const counterSteps = new Map((slices?.counters ?? []).map((c) => [c.id, c]));
  const height = layout.height + AXIS_HEIGHT;
  // The painted part: the scroll box's height of it from scrollTop.
  const scrollTop = Math.max(0, Math.min(props.scrollTop, height - 1));
  const paintHeight = Math.max(AXIS_HEIGHT + 1, Math.min(height - scrollTop, props.viewHeight || height));
  const { plot, toPx, toOffset } = plotScale(viewport, width);

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
      // The slice under the pointer moves: its tooltip would name another one.
      setHover(null);
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

  // Only while the timeline has the focus (the pointer layer): the same
  // letters typed anywhere else are that place's, or the app's shortcuts.
  const onKeyDown = (e: React.KeyboardEvent) => {
    const action = navActionFor(e);
    if (!action) return;
    e.preventDefault();
    frameMark('asys:tl-input');
    setHover(null);
    if (action.kind === 'zoom') props.onZoom(zoomAround(viewport, 0.5, action.factor, extent));
    else if (action.kind === 'pan') onViewport(panBy(viewport, action.fraction, extent));
    else props.onCommand(action.kind);
  };
  const onContextMenu = (e: React.MouseEvent<HTMLDivElement>) => {
    e.preventDefault();
    setHover(null);
    const at = hit(e.nativeEvent.offsetX, e.nativeEvent.offsetY);
    if (at) onPick(at);
    props.onMenu(e.clientX, e.clientY, at, rowAt(e.nativeEvent.offsetY)?.track.id ?? null);
  };

  // Whether a y of the pointer layer is under the axis, which stays at the
  // top of the scroll box. Read from the live layout, not from the scroll
  // state: a click that comes before the scroll event is handled (a scroll
  // back to the top, then at once a right-click on the first rows) would
  // otherwise be taken for a click on the axis, and its row lost.
  const overAxis = (layerY: number) => {
    const c = canvas.current, p = pointer.current;
    const shown = c && p ? c.getBoundingClientRect().top - p.getBoundingClientRect().top : scrollTop;
    return layerY - shown < AXIS_HEIGHT;
  };
  // The row under a y of the pointer layer (none under the axis).
  const rowAt = (layerY: number) => {
    if (overAxis(layerY)) return null;
    const y = layerY - AXIS_HEIGHT;
    return rowsIn(layout.rows, y, y + 1).find((r) => y >= r.top && y < r.top + r.height) ?? null;
  };
  // Which track and lane a y falls on.
  const laneAt = (layerY: number) => {
    const r = rowAt(layerY);
    return r ? { track: r.track.id, lane: Math.floor((layerY - AXIS_HEIGHT - r.top) / LANE_HEIGHT) } : null;
  };
  // Only in the plot: a slice that starts left of the window reaches under
  // the row labels, and a right-click on a label (for its Events view) must
  // not pick it.
  const hit = (x: number, y: number): PickedSlice | null => {
    if (x < LABEL_WIDTH) return null;
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
    // The axis: the time at the pointer, since the zero and absolute.
    if (x >= LABEL_WIDTH && overAxis(y)) {
      const at = absoluteAt(origin, toOffset(x));
      return setHover({ x, y, text: t.axisTimeAt(formatAtSinceZero(at, props.zero), String(at)) });
    }
    // A counter: its value at the pointer's time.
    const row = x >= LABEL_WIDTH ? rowAt(y) : null;
    const counter = row?.track.counter;
    if (row && counter) {
      const steps = counterSteps.get(row.track.id);
      if (!steps) return setHover(null);
      const offset = toOffset(x);
      const at = absoluteAt(origin, offset);
      const k = stepAt(steps, at);
      const words = { noValue: t.counterNoValue, merged: t.counterMerged };
      const value = k < 0 || offset > Number(info.last - origin) ? words.noValue : stepText(steps, k, counter.unit, words);
      return setHover({ x, y, text: t.tipCounter(row.track.label, value, `${formatAtSinceZero(at, props.zero)} (${at} ns)`) });
    }
    const p = hit(x, y);
    const s = p && slices?.tracks.find((t) => t.id === p.track);
    // A row drawn as an occupancy histogram: how busy the pointer's pixel is, then the slice under it, if any.
    // A device row's lower lane reads its memory operations' half.
    const histogram = row && slices?.tracks.find((t) => t.id === row.track.id)?.occupancy;
    const pointerAt = absoluteAt(origin, toOffset(x));
    const busy = histogram ? occupancyAt(histogram, pointerAt, laneAt(y)?.lane ?? 0) : null;
    const busyLine = busy === null ? '' : t.tipOccupancy(shareText(busy));
    const j = histogram && busy !== null ? columnAt(histogram, pointerAt) : -1;
    const column = histogram && j >= 0 ? { from: columnEdge(histogram, j), to: columnEdge(histogram, j + 1), busy: busy! } : undefined;
    if (!p || !s) return setHover(busyLine ? { x, y, text: busyLine, column } : null);
    const dur = Number(s.end[p.index] - s.start[p.index]);
    const n = s.count[p.index];
    const at = `${formatAtSinceZero(s.start[p.index], props.zero)} (${s.start[p.index]} ns)`;
    const kindName = SLICE_KINDS[s.kind[p.index]];
    // A graph launch reads as its row (its label in the page's language).
    const name = (kindName === 'graphLaunch' ? info.tracks[p.track]?.label : displaySliceName(slices!.names[s.name[p.index]] ?? '', kindName)) || t.unnamed;
    const host = [
      ...hostEventLines(info.tracks[p.track], s.event[p.index], slices!.names[s.name[p.index]] ?? '', t),
      ...graphLaunchLines(info.tracks[p.track], s.event[p.index], Number(s.end[p.index] - s.start[p.index]), t),
    ];
    const kinds = s.memKind ? memKindsOf(s.memKind[p.index]) : null;
    const memory = kinds ? `\n${t.tipMemKinds(t.memKindNames[kinds.src] ?? '', t.memKindNames[kinds.dst] ?? '')}` : '';
    const text =
      (busyLine ? `${busyLine}\n` : '') +
      t.tipSlice(name, formatDurationNs(dur), at) +
      memory +
      (n > 1 ? `\n${t.tipMerged(formatInt(n))}` : '') +
      host.map((l) => `\n${l}`).join('');
    setHover({ x, y, text, column });
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
    const c = canvas.current!;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(paintHeight * dpr);
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    const drawn = paint(g, {
      width,
      height: paintHeight,
      scrollTop,
      viewport,
      origin,
      zero: props.zero,
      last: info.last,
      rows: layout.rows,
      rowOf,
      groupShare,
      slices,
      range,
      highlight,
      highlightName,
      picked,
      selection,
      related: props.related ?? null,
      spotlight: props.spotlight ?? null,
      colors: chartColors(box.current!),
    });
    const layer = pointer.current!.dataset;
    layer.slices = String(drawn.slices);
    layer.marked = String(drawn.marked);
    layer.spotlit = String(drawn.spotlit);
    layer.dimmed = String(drawn.dimmed);
    layer.related = String(drawn.related);
    layer.counterSteps = String(drawn.counterSteps);
    layer.histograms = String(drawn.histograms);
    if (paintStart) frameMeasure('asys:tl-paint', paintStart);
  }, [width, paintHeight, scrollTop, viewport, slices, layout, rowOf, info, origin, props.zero, range, highlight, highlightName, picked, selection, props.related, props.spotlight, theme]);

  return (
    <div className="timeline" ref={box} style={{ height }} data-testid="timeline" data-from={viewport.from} data-to={viewport.to}>
      <canvas ref={canvas} style={{ width, height: paintHeight }} aria-hidden="true" />
      <div
        ref={pointer}
        className="timeline-pointer"
        style={{ height }}
        tabIndex={0}
        {...OWN_KEYS}
        onKeyDown={onKeyDown}
        onMouseDown={onMouseDown}
        onMouseMove={onMouseMove}
        onMouseUp={onMouseUp}
        onContextMenu={onContextMenu}
        onMouseLeave={() => {
          setHover(null);
          drag.current = null;
        }}
        aria-label={t.timelineCanvasLabel}
        data-testid="timeline-canvas"
      />
      {/* The rows as text, for screen readers (the canvas draws the same labels). */}
      <ul className="visually-hidden" data-testid="timeline-rows">
        {layout.rows.map((r) => (
          <li key={r.track.id} data-track={r.track.id} data-top={AXIS_HEIGHT + r.top} data-height={r.height} data-device-row={r.track.deviceRow ? true : undefined} data-graph-of={r.track.graphOf} data-events={r.track.graphOf !== undefined ? r.track.events : undefined}>
            {r.groupStart && <span data-testid="tl-group">{groupLabel(r.track.group, groupShare.get(r.track.group))}</span>}
            {r.contextStart && <span data-testid="tl-context">{groupLabel(r.track.context ?? '', r.track.contextShare)}</span>}
            <span
              data-testid="tl-track"
              title={r.track.deviceRow ? t.deviceRowTitle : r.track.graphOf !== undefined ? t.graphRowTitle : undefined}
            >
              {trackLabel(r.track)}
            </span>
          </li>
        ))}
      </ul>
      {hover && (
        <div
          className="timeline-tip"
          style={{ left: hover.x + 12, top: hover.y + 12 }}
          role="tooltip"
          data-testid="timeline-tip"
          data-column-from={hover.column ? String(hover.column.from) : undefined}
          data-column-to={hover.column ? String(hover.column.to) : undefined}
          data-busy={hover.column ? String(hover.column.busy) : undefined}
        >
          {hover.text}
        </div>
      )}
    </div>
  );
}

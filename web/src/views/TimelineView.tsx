// The timeline view of the active report: its tracks from the engine, a
// window of merged slices fetched for each viewport (latest wins), the
// selected slice's details, and the range tools: drag a range, then "Filter
// and Zoom in" makes it the report's statistics range for every rule (as
// --filter-time), shown greyed outside; a table row's "Zoom to / Highlight
// in timeline" lands here. A selected event's linked events (an API call's
// launched activities, an activity's launching call) are outlined and listed
// below, each with a button that brings it into view (RelatedEvents).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { TimelineEvent, TimelineInfo, TimelineRelated, TimelineWindowSlices } from '../engine/timeline_types';
import { LABEL_WIDTH, TimelineCanvas, type PickedSlice } from '../components/TimelineCanvas';
import { formatDurationNs, formatInt } from '../lib/format';
import { clampViewport, filterTimeOf, layoutTracks, tracksToFetch, type Viewport } from '../lib/timeline';
import { frameDuration, frameMark, frameMeasure } from '../lib/frame_marks';
import { RelatedEvents, SelectedEvent, jumpWindow } from '../components/TimelineRelated';
import { SLICE_KINDS } from '../engine/timeline_types';
import { useEngine } from '../state/engine';
import { message, useErrors } from '../state/errors';
import { useReports, type OpenReport } from '../state/reports';
import { useView } from '../state/view';
import { useLang } from '../i18n/lang';

export function TimelineView({ onBusy }: { onBusy: (busy: boolean) => void }) {
  const { active } = useReports();
  if (!active) return null;
  return <ReportTimeline key={active.id} report={active} onBusy={onBusy} />;
}

function ReportTimeline({ report, onBusy }: { report: OpenReport; onBusy: (busy: boolean) => void }) {
  const { t } = useLang();
  const { client } = useEngine();
  const { pushError } = useErrors();
  const { applyTimeFilter } = useReports();
  const { focus, setShownWindow } = useView();
  const [info, setInfo] = useState<TimelineInfo | null>(null);
  const [viewport, setViewport] = useState<Viewport | null>(null);
  const [width, setWidth] = useState(0);
  const [slices, setSlices] = useState<TimelineWindowSlices | null>(null);
  // The tracks those slices were asked for (tracksToFetch's key).
  const [slicesKey, setSlicesKey] = useState('');
  const [picked, setPicked] = useState<PickedSlice | null>(null);
  // The selected event (a track and its index in it): kept across windows,
  // unlike `picked` (a slice of one window).
  const [selected, setSelected] = useState<{ track: number; event: number } | null>(null);
  const [links, setLinks] = useState<TimelineRelated | null>(null);
  const [selection, setSelection] = useState<[number, number] | null>(null);
  const [highlight, setHighlight] = useState<[bigint, bigint] | null>(null);
  const [highlightName, setHighlightName] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [fetching, setFetching] = useState(false);
  // The scroll box's offset and height: the rows in view, the tracks asked for.
  const scrollBox = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 0 });
  useEffect(() => onBusy(loading || fetching), [loading, fetching, onBusy]);
  useEffect(() => () => onBusy(false), [onBusy]);

  useEffect(() => {
    let live = true;
    client
      .timelineTracks(report.id)
      .then((t) => {
        if (!live) return;
        setInfo(t);
        setViewport({ from: 0, to: Math.max(1, Number(t.last - t.first)) });
      })
      .catch((e) => pushError(message(e)))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [client, report.id, pushError]);

  const origin = info?.first ?? 0n;
  const extent = info ? Number(info.last - info.first) : 1;

  // A table row asked to be shown: zoom to it (with a margin) or only mark it.
  const applied = useRef(0);
  useEffect(() => {
    if (!info || !focus || focus.report !== report.id || focus.seq === applied.current) return;
    applied.current = focus.seq;
    setHighlightName(focus.name ?? null);
    if (focus.name !== undefined) {
      setHighlight(null);
      return;
    }
    if (focus.exact) {
      setViewport(clampViewport({ from: Number(focus.start - origin), to: Number(focus.end - origin) }, extent));
      return;
    }
    setHighlight([focus.start, focus.end]);
    if (focus.zoom) {
      const a = Number(focus.start - origin), b = Number(focus.end - origin);
      const pad = Math.max((b - a) * 0.1, 500);
      setViewport(clampViewport({ from: a - pad, to: b + pad }, extent));
    }
  }, [info, focus, report.id, origin, extent]);

  // The window shown, for the permalink (exact ns; offsets rounded outwards).
  useEffect(() => {
    if (!info || !viewport) return;
    setShownWindow({ report: report.id, start: origin + BigInt(Math.floor(viewport.from)), end: origin + BigInt(Math.ceil(viewport.to)) });
  }, [info, viewport, origin, report.id, setShownWindow]);
  useEffect(() => () => setShownWindow(null), [setShownWindow]);

  // The scroll box appears with the tracks; its scroll and size from then on.
  useLayoutEffect(() => {
    const el = scrollBox.current;
    if (!el) return;
    const read = () => setScroll({ top: el.scrollTop, height: el.clientHeight });
    read();
    el.addEventListener('scroll', read, { passive: true });
    const ro = new ResizeObserver(read);
    ro.observe(el);
    return () => {
      el.removeEventListener('scroll', read);
      ro.disconnect();
    };
  }, [info, viewport === null]);
  // Only the tracks near the view: the same set while scrolling within a screen.
  const layout = useMemo(() => layoutTracks(info?.tracks ?? []), [info]);
  const wanted = tracksToFetch(layout.rows, scroll.top, scroll.height || 1000);
  const wantedIds = useRef(wanted.ids);
  wantedIds.current = wanted.ids;

  // Fetch the window's slices; a newer viewport wins over an answer on its way.
  const seq = useRef(0);
  const shownSeq = useRef(0); // the request whose slices are shown (for the frame marks)
  useEffect(() => {
    if (!info || !viewport || width <= 0 || info.tracks.length === 0) return;
    const mine = ++seq.current;
    const key = wanted.key;
    const from = origin + BigInt(Math.floor(viewport.from));
    const to = origin + BigInt(Math.ceil(viewport.to));
    setFetching(true);
    const timer = setTimeout(() => {
      const asked = performance.now();
      client
        .timelineWindow(report.id, from, to, Math.round(width), wantedIds.current)
        .then((w) => {
          frameMeasure('asys:tl-query', asked, { seq: mine });
          if (w.workerMs !== undefined) frameDuration('asys:tl-worker', w.workerMs, { seq: mine });
          if (mine === seq.current) {
            shownSeq.current = mine;
            setSlices(w);
            setSlicesKey(key);
            setPicked(null);
          }
        })
        .catch((e) => pushError(message(e)))
        .finally(() => mine === seq.current && setFetching(false));
    }, 16);
    return () => clearTimeout(timer);
  }, [client, report.id, info, viewport, width, origin, pushError, wanted.key]);

  // After the canvas drew a window's slices (its effect runs before this one).
  useEffect(() => {
    if (slices) frameMark('asys:tl-frame', { seq: shownSeq.current });
  }, [slices]);

  // The selected event's links, from the engine (built there on the first ask).
  useEffect(() => {
    setLinks(null);
    if (!selected) return;
    let live = true;
    client
      .timelineRelated(report.id, selected.track, selected.event)
      .then((r) => live && setLinks(r))
      .catch((e) => pushError(message(e)));
    return () => {
      live = false;
    };
  }, [client, report.id, selected, pushError]);

  const onPick = (p: PickedSlice | null) => {
    setPicked(p);
    const s = p && slices?.tracks.find((t) => t.id === p.track);
    setSelected(p && s ? { track: p.track, event: s.event[p.index] } : null);
  };
  // A linked event's button: a window around it, and it becomes the selection.
  const jumpTo = (e: TimelineEvent) => {
    setViewport(clampViewport(jumpWindow(e, origin), extent));
    setPicked(null);
    setSelected({ track: e.track, event: e.event });
  };

  const onWidth = useCallback((px: number) => setWidth(px), []);
  const toAbs = (offset: number) => origin + BigInt(Math.round(offset));
  const filterAndZoom = async () => {
    if (!selection || !info) return;
    const [a, b] = selection;
    try {
      await applyTimeFilter(report.id, filterTimeOf(toAbs(a), toAbs(b), info.captureStart), '');
      setViewport(clampViewport({ from: a, to: b }, extent));
      setSelection(null);
    } catch (e) {
      pushError(message(e));
    }
  };

  if (loading) return <div className="placeholder muted">Building the timeline…</div>;
  if (!info || !viewport) return <div className="placeholder muted">No timeline for this report.</div>;
  if (info.tracks.length === 0) return <div className="placeholder muted">This report has no events to show on a timeline.</div>;

  const range = report.timeFilter?.window ?? null;
  const pickedTrack = picked && slices?.tracks.find((t) => t.id === picked.track);
  // The links of the current selection only (not of the one before while the engine answers).
  const shown = links && selected && links.selected.track === selected.track && links.selected.event === selected.event ? links : null;
  const events = info.tracks.reduce((n, t) => n + t.events, 0);
  return (
    <div
      className="timeline-view"
      data-testid="timeline-view"
      data-origin={String(origin)}
      data-filter-time={report.timeFilter?.filterTime ?? ''}
      data-tracks-asked={slices ? wanted.ids.length : 0}
      data-rows-ready={slices !== null && slicesKey === wanted.key}
    >
      <div className="toolbar timeline-toolbar">
        <span className="muted small" data-testid="timeline-window">
          {t.timelineStatus(formatDurationNs(viewport.to - viewport.from), info.tracks.length, formatInt(events))}
        </span>
        {(info.notes ?? []).map((n) => (
          <span key={n} className="muted small" data-testid="timeline-note" title={n}>
            {n.length > 60 ? `${n.slice(0, 60)}…` : n}
          </span>
        ))}
        <span className="spacer" />
        <button className="button" onClick={() => setViewport({ from: 0, to: Math.max(1, extent) })} data-testid="tl-reset">
          {t.wholeCapture}
        </button>
        <button
          className="button"
          disabled={!selection}
          onClick={() => selection && setViewport(clampViewport({ from: selection[0], to: selection[1] }, extent))}
          data-testid="tl-zoom-selection"
        >
          {t.zoomIn}
        </button>
        <button
          className="button primary"
          disabled={!selection}
          onClick={() => void filterAndZoom()}
          title={t.filterZoomTitle}
          data-testid="tl-filter-zoom"
        >
          {t.filterZoom}
        </button>
        {highlightName !== null && (
          <button className="button" onClick={() => setHighlightName(null)} data-testid="tl-clear-mark" title={highlightName}>
            Unmark “{highlightName.length > 40 ? `${highlightName.slice(0, 40)}…` : highlightName}”
          </button>
        )}
        {report.timeFilter && (
          <button className="button" onClick={() => void applyTimeFilter(report.id, '', '')} data-testid="tl-clear-range">
            {t.clearRange}
          </button>
        )}
      </div>
      <div className="timeline-scroll" ref={scrollBox} style={{ ['--label-width' as string]: `${LABEL_WIDTH}px` }}>
        <TimelineCanvas
          info={info}
          origin={origin}
          viewport={viewport}
          onViewport={setViewport}
          slices={slices}
          onWidth={onWidth}
          range={range}
          highlight={highlight}
          highlightName={highlightName}
          picked={picked}
          onPick={onPick}
          related={shown}
          selection={selection}
          onSelection={setSelection}
          layout={layout}
          scrollTop={scroll.top}
          viewHeight={scroll.height}
        />
      </div>
      <div
        className="timeline-details"
        data-testid="tl-details"
        data-selected-track={shown?.selected.track}
        data-selected-event={shown?.selected.event}
        data-selected-kind={shown ? (SLICE_KINDS[shown.selected.kind] ?? '') : undefined}
        data-selected-start={shown ? String(shown.selected.start) : undefined}
      >
        {picked && pickedTrack ? (
          <>
            <strong>{slices!.names[pickedTrack.name[picked.index]] || '(unnamed)'}</strong>
            <span>{info.tracks[picked.track]?.group} · {info.tracks[picked.track]?.label}</span>
            <span>
              start {String(pickedTrack.start[picked.index])} ns (+
              {formatDurationNs(Number(pickedTrack.start[picked.index] - origin))}), duration{' '}
              {formatDurationNs(Number(pickedTrack.end[picked.index] - pickedTrack.start[picked.index]))}
            </span>
            {pickedTrack.count[picked.index] > 1 && (
              <span className="muted">{formatInt(pickedTrack.count[picked.index])} events merged at this zoom: zoom in to see each</span>
            )}
            {shown ? (
              <RelatedEvents links={shown} info={info} origin={origin} onJump={jumpTo} />
            ) : (
              selected && <span className="muted">Looking up its linked events…</span>
            )}
          </>
        ) : shown ? (
          <>
            <SelectedEvent event={shown.selected} info={info} origin={origin} />
            <RelatedEvents links={shown} info={info} origin={origin} onJump={jumpTo} />
          </>
        ) : selection ? (
          <span>
            Selected {formatDurationNs(selection[1] - selection[0])} from +{formatDurationNs(Math.max(0, selection[0]))}
          </span>
        ) : (
          <span className="muted">{t.timelineHint}</span>
        )}
      </div>
    </div>
  );
}

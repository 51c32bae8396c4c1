// The timeline view of the active report: its tracks from the engine, a
// window of merged slices fetched for each viewport (latest wins), the
// selected slice's details, and the range tools: drag a range, then "Filter
// and Zoom in" makes it the report's statistics range for every rule (as
// --filter-time), shown greyed outside; a table row's "Zoom to / Highlight
// in timeline" lands here. A selected event's linked events (an API call's
// launched activities, an activity's launching call) are outlined and listed
// below, each with a button that brings it into view (RelatedEvents).
import { useEffect, useMemo, useRef, useState } from 'react';
import type { TimelineEvent } from '../engine/timeline_types';
import { TimelineCanvas } from '../components/TimelineCanvas';
import { formatDurationNs, formatInt } from '../lib/format';
import { AXIS_HEIGHT, LABEL_WIDTH, clampViewport, displayOrder, filterTimeOf, layoutTracks, tracksToFetch, withShares, type PickedSlice } from '../lib/timeline';
import { useKernelGrouping, useKernelGroups } from '../state/useKernelGroups';
import { kernelGroupingFrom, withRangeRowLabels } from '../lib/kernel_grouping';
import { useTimelineShares } from '../state/useTimelineShares';
import { ContextMenu } from '../components/ContextMenu';
import { linkTargets, scrollToMiddle, scrollToShow } from '../lib/timeline_menu';
import { RelatedEvents, SelectedEvent, jumpWindow } from '../components/TimelineRelated';
import { HostEventDetails } from '../components/HostEventDetails';
import { withHostLabels } from '../lib/host_rows';
import { SLICE_KINDS } from '../engine/timeline_types';
import { message, useErrors } from '../state/errors';
import { useReports, type OpenReport } from '../state/reports';
import { useScrollArea } from '../state/useScrollArea';
import { useShowInTable } from '../state/useShowInTable';
import { useTimelineFocus } from '../state/useTimelineFocus';
import { useTimelineSelection } from '../state/useTimelineSelection';
import { useTimelineSlices } from '../state/useTimelineSlices';
import { useTimelineTracks } from '../state/useTimelineTracks';
import { useTimelineWindow } from '../state/useTimelineWindow';
import { useEventsView } from '../state/useEventsView';
import { EventsPane } from '../components/EventsPane';
import { hasEventsView } from '../lib/events_view';
import { reportStem } from '../lib/download';
import { useLang } from '../i18n/lang';
import { engineLine } from '../i18n/engine_lines';
import { absoluteAt, formatAtSinceZero, timeZeroOf } from '../lib/time_zero';
import { TimeText } from '../components/TimeText';
import { SelectionStatsPanel } from '../components/SelectionStats';
import { useSelectionStats } from '../state/useSelectionStats';
import { useEngine } from '../state/engine';
import { withDeviceRowLabels } from '../lib/device_row';
import { isGraphRow, withGraphRowLabels } from '../lib/graph_rows';
import { GraphLaunchDetails } from '../components/GraphLaunchDetails';
import { DeviceRowLegend } from '../components/DeviceRowLegend';

export function TimelineView({ onBusy }: { onBusy: (busy: boolean) => void }) {
  const { active } = useReports();
  if (!active) return null;
  return <ReportTimeline key={active.id} report={active} onBusy={onBusy} />;
}

function ReportTimeline({ report, onBusy }: { report: OpenReport; onBusy: (busy: boolean) => void }) {
  const { t, lang } = useLang();
  const { pushError } = useErrors();
  const { applyTimeFilter } = useReports();
  const { info: built, loading } = useTimelineTracks(report.id);
  const win = useTimelineWindow(report.id, built);
  // "Show kernels grouped by": the rows by base name or by HGTX range of the streams near the view, asked as they come into it.
  const [grouping, setGrouping] = useKernelGrouping(report.id);
  const [nearView, setNearView] = useState<number[]>([]);
  const grouped = useKernelGroups(report.id, built, grouping, nearView);
  // The HGTX range row of the kernels in no range, and a process's own host rows: labelled in the interface's language.
  const info = useMemo(() => {
    const ranged = withRangeRowLabels(grouped, t.noHgtxRange, (n) => t.otherHgtxRanges(formatInt(n)));
    const hosted = ranged ? withHostLabels(ranged, t) : ranged;
    // The graph rows ("Graph 1 → exec 2") too.
    return hosted ? { ...hosted, tracks: withGraphRowLabels(hosted.tracks, t) } : hosted;
  }, [grouped, t]);
  const { viewport, origin } = win;
  // Every time shown counts from the capture start, as the tables and the statistics range do.
  const zero = timeZeroOf(info?.captureStart);
  // The scroll box appears with the tracks; its scroll and size from then on.
  const scrollBox = useRef<HTMLDivElement>(null);
  const scroll = useScrollArea(scrollBox, info !== null);
  // Only the tracks near the view: the same set while scrolling within a screen.
  // The rows' shares are the statistics range's when it is set (recomputed there), else the capture's.
  const shares = useTimelineShares(report.id, info, report.timeFilter?.window ?? null);
  const shown = useMemo(() => {
    if (!info) return null;
    const s = withShares(info, shares);
    return { ...s, tracks: withDeviceRowLabels(s.tracks, t) };
  }, [info, shares, t]);
  const layout = useMemo(() => layoutTracks(displayOrder(shown?.tracks ?? [], grouping)), [shown, grouping]);
  const wanted = tracksToFetch(layout.rows, scroll.top, scroll.height || 1000);
  useEffect(() => setNearView(wanted.ids), [wanted.key]); // eslint-disable-line react-hooks/exhaustive-deps
  const { slices, rowsReady, fetching, onWidth } = useTimelineSlices(report.id, info, viewport, wanted);
  const sel = useTimelineSelection(report.id, slices, info?.tracks);
  const { picked, selection, highlight, highlightName, links } = sel;
  // The drag selection's statistics (absolute ns), asked again as it changes.
  const { client } = useEngine();
  const selStats = useSelectionStats(report.id, selection && [absoluteAt(origin, selection[0]), absoluteAt(origin, selection[1])]);
  useEffect(() => onBusy(loading || fetching || selStats.loading), [loading, fetching, selStats.loading, onBusy]);
  useEffect(() => () => onBusy(false), [onBusy]);

  // A linked event's button: a window around it, its row scrolled into
  // view (to the middle when `middle`), and it becomes the selection.
  // A failed allocation drawn again on its process's row: the call itself,
  // on its thread's HGGC API row (the event its table row names).
  const goToCall = (track: number, event: number) => {
    void client
      .timelineEventRow(report.id, track, event)
      .then((row) => (row ? client.timelineFindEvent(report.id, row.table, row.index) : null))
      .then((e) => (e ? jumpTo(e, true) : pushError(t.notOnTimeline(t.goToCall))))
      .catch((err) => pushError(message(err)));
  };
  const jumpTo = (e: TimelineEvent, middle = false) => {
    const w = jumpWindow(e, origin);
    win.zoomTo(w.from, w.to);
    sel.selectEvent(e);
    const row = layout.rows.find((r) => r.track.id === e.track);
    const box = scrollBox.current;
    if (row && box) {
      const view = box.clientHeight - AXIS_HEIGHT;
      const top = middle ? scrollToMiddle(row.top, row.height, view) : scrollToShow(row.top, row.height, box.scrollTop, view);
      if (top !== box.scrollTop) box.scrollTop = top;
    }
  };
  // A table row's event, found by identity: shown as jumpTo shows a linked one, and spotlit.
  const showEvent = (e: TimelineEvent) => {
    jumpTo(e, true);
    sel.setSpotlight(e);
  };
  useTimelineFocus(report.id, info, win, sel, showEvent);
  const eventsView = useEventsView(report, info, zero, sel.selected, showEvent);
  const showInTableItem = useShowInTable(report.id);
  const [menu, setMenu] = useState<{ x: number; y: number; at: PickedSlice | null; track: number | null } | null>(null);

  const toAbs = (offset: number) => absoluteAt(origin, offset);
  const filterAndZoom = async () => {
    if (!selection || !info) return;
    const [a, b] = selection;
    try {
      const before = report.timeFilter?.filterTime ?? '';
      await applyTimeFilter(report.id, filterTimeOf(toAbs(a), toAbs(b), info.captureStart), '');
      // One step for Backspace: the filter and its zoom undone together.
      win.pushFilterStep(before);
      win.setViewport(clampViewport({ from: a, to: b }, win.extent));
      sel.setSelection(null);
    } catch (e) {
      pushError(message(e));
    }
  };

  const back = async () => {
    const step = win.back();
    if (step?.filterTime === undefined) return;
    try {
      await applyTimeFilter(report.id, step.filterTime, '');
    } catch (e) {
      pushError(message(e));
    }
  };
  const onCommand = (kind: 'back' | 'zoomToSelection' | 'filterToSelection') => {
    if (kind === 'back') void back();
    else if (kind === 'zoomToSelection') selection && win.zoomTo(selection[0], selection[1]);
    else void filterAndZoom();
  };

  if (loading) return <div className="placeholder muted">{t.buildingTimeline}</div>;
  if (!info || !viewport) return <div className="placeholder muted">{t.noTimeline}</div>;
  if (info.tracks.length === 0) return <div className="placeholder muted">{t.noTimelineEvents}</div>;

  const range = report.timeFilter?.window ?? null;
  const pickedTrack = picked && slices?.tracks.find((t) => t.id === picked.track);
  // Rows by base name or HGTX range draw their stream's kernels again: counted once.
  // The device rows draw their PPU's work again: not tracks of their own.
  // The graph rows summarise their streams' activities (a slice a launch): not tracks of their own either.
  const own = info.tracks.filter((t) => t.parent === undefined && !t.deviceRow && !isGraphRow(t));
  // So are the failed allocations a process's row draws again (its threads' calls).
  const events = own.reduce((n, t) => n + (t.hostRow === 'allocationFailures' ? 0 : t.events), 0);
  return (
    <div
      className="timeline-view"
      data-testid="timeline-view"
      data-origin={String(origin)}
      data-zero={String(zero)}
      data-filter-time={report.timeFilter?.filterTime ?? ''}
      data-shares={shares ? 'range' : 'capture'}
      data-tracks-asked={slices ? wanted.ids.length : 0}
      data-rows-ready={rowsReady}
      data-spotlight={sel.spotlight ? `${sel.spotlight.track}:${sel.spotlight.event}` : undefined}
    >
      <div className="toolbar timeline-toolbar">
        <span className="muted small" data-testid="timeline-window">
          {t.timelineStatus(formatDurationNs(viewport.to - viewport.from), own.length, formatInt(events))}
        </span>
        {(info.notes ?? []).map((n) => {
          // The engine's line, in the page's language where a template knows it; whole on hover.
          const shown = engineLine(n, lang);
          return (
            <span key={n} className="muted small" data-testid="timeline-note" title={shown === n ? n : `${shown}\n${n}`}>
              {shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}
            </span>
          );
        })}
        {info.tracks.some((tr) => tr.deviceRow) && <DeviceRowLegend />}
        <span className="spacer" />
        <label className="small" title={t.kernelGroupingTitle}>
          {t.kernelGrouping}{' '}
          <select value={grouping} onChange={(e) => setGrouping(kernelGroupingFrom(e.target.value))} data-testid="tl-kernel-grouping">
            <option value="none">{t.kernelGroupingNone}</option>
            <option value="baseName">{t.kernelGroupingBaseName}</option>
            <option value="hgtxRange" disabled={!!info.rangeGroupsRefused}>
              {t.kernelGroupingHgtxRange}
            </option>
          </select>
        </label>
        {info.rangeGroupsRefused && (
          <span className="muted small" data-testid="tl-range-groups-refused" title={t.rangeGroupsRefused(formatInt(info.rangeGroupsRefused.activities), formatInt(info.rangeGroupsRefused.max))}>
            {t.rangeGroupsRefusedShort}
          </span>
        )}
        <button className="button" onClick={win.showWhole} data-testid="tl-reset">
          {t.wholeCapture}
        </button>
        <button
          className="button"
          disabled={!selection}
          onClick={() => selection && win.zoomTo(selection[0], selection[1])}
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
          <button className="button" onClick={() => sel.setHighlightName(null)} data-testid="tl-clear-mark" title={highlightName}>
            {t.unmark(highlightName.length > 40 ? `${highlightName.slice(0, 40)}…` : highlightName)}
          </button>
        )}
        {sel.spotlight && (
          <button className="button" onClick={() => sel.setSpotlight(null)} data-testid="tl-clear-spotlight" title={sel.spotlight.name}>
            {t.clearSpotlight}
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
          info={shown ?? info}
          origin={origin}
          zero={zero}
          viewport={viewport}
          onViewport={win.setViewport}
          slices={slices}
          onWidth={onWidth}
          range={range}
          highlight={highlight}
          highlightName={highlightName}
          picked={picked}
          onPick={sel.pick}
          related={links}
          spotlight={sel.spotlight}
          selection={selection}
          onSelection={sel.setSelection}
          onZoom={(v) => win.zoomTo(v.from, v.to)}
          onCommand={onCommand}
          onMenu={(x, y, at, track) => setMenu({ x, y, at, track })}
          layout={layout}
          scrollTop={scroll.top}
          viewHeight={scroll.height}
        />
      </div>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          onClose={() => setMenu(null)}
          items={[
            {
              label: t.zoomIn,
              disabled: !selection,
              onSelect: () => selection && win.zoomTo(selection[0], selection[1]),
            },
            { label: t.filterZoom, disabled: !selection, onSelect: () => void filterAndZoom() },
            ...linkTargets(menu.at ? links : null).map((go) => ({
              label: go.to === 'hostApi' ? t.goToHostApi : t.goToDeviceActivity,
              disabled: go.event === null,
              onSelect: () => go.event && jumpTo(go.event),
            })),
            showInTableItem(menu.at ? (links?.selected ?? null) : null),
            {
              label: t.showInEventsView,
              // A graph row's launches are its stream's activities, listed in the stream's Events view.
              disabled: menu.track === null || !hasEventsView(info.tracks[menu.track]) || isGraphRow(info.tracks[menu.track]),
              onSelect: () => menu.track !== null && eventsView.open(menu.track),
            },
          ]}
        />
      )}
      <div
        className="timeline-details"
        data-testid="tl-details"
        data-selected-track={links?.selected.track}
        data-selected-event={links?.selected.event}
        data-selected-kind={links ? (SLICE_KINDS[links.selected.kind] ?? '') : undefined}
        data-selected-start={links ? String(links.selected.start) : undefined}
      >
        {picked && pickedTrack ? (
          <>
            <strong>
              {(SLICE_KINDS[pickedTrack.kind[picked.index]] === 'graphLaunch' ? info.tracks[picked.track]?.label : slices!.names[pickedTrack.name[picked.index]]) ||
                t.unnamed}
            </strong>
            <span>{info.tracks[picked.track]?.group} · {info.tracks[picked.track]?.label}</span>
            <span>
              {t.eventStart} <TimeText at={pickedTrack.start[picked.index]} zero={zero} signed />, {t.eventDuration}{' '}
              {formatDurationNs(Number(pickedTrack.end[picked.index] - pickedTrack.start[picked.index]))}
            </span>
            {pickedTrack.count[picked.index] > 1 && (
              <span className="muted">{t.mergedAtZoom(formatInt(pickedTrack.count[picked.index]))}</span>
            )}
            <HostEventDetails
              track={info.tracks[picked.track]}
              event={pickedTrack.event[picked.index]}
              name={slices!.names[pickedTrack.name[picked.index]] ?? ''}
              onGoToCall={() => goToCall(picked.track, pickedTrack.event[picked.index])}
            />
            <GraphLaunchDetails
              track={info.tracks[picked.track]}
              event={pickedTrack.event[picked.index]}
              spanNs={Number(pickedTrack.end[picked.index] - pickedTrack.start[picked.index])}
              links={links}
              onJump={jumpTo}
            />
            {links ? (
              <RelatedEvents links={links} info={info} zero={zero} onJump={jumpTo} />
            ) : (
              sel.selected && <span className="muted">{t.lookingUpLinks}</span>
            )}
          </>
        ) : links ? (
          <>
            <SelectedEvent event={links.selected} info={info} zero={zero} />
            <HostEventDetails
              track={info.tracks[links.selected.track]}
              event={links.selected.event}
              name={links.selected.name}
              onGoToCall={() => goToCall(links.selected.track, links.selected.event)}
            />
            <GraphLaunchDetails
              track={info.tracks[links.selected.track]}
              event={links.selected.event}
              spanNs={Number(links.selected.end - links.selected.start)}
              links={links}
              onJump={jumpTo}
            />
            <RelatedEvents links={links} info={info} zero={zero} onJump={jumpTo} />
          </>
        ) : selection ? (
          <span data-testid="tl-selection" title={t.absoluteSpan(String(toAbs(selection[0])), String(toAbs(selection[1])))}>
            {t.selectionFromTo(
              formatAtSinceZero(toAbs(selection[0]), zero),
              formatAtSinceZero(toAbs(selection[1]), zero),
              formatDurationNs(Number(toAbs(selection[1]) - toAbs(selection[0]))),
            )}
          </span>
        ) : (
          <span className="muted">{t.timelineHint}</span>
        )}
      </div>
      {selection && (
        <SelectionStatsPanel
          state={selStats}
          client={client}
          zero={zero}
          fileStem={reportStem(report.summary.fileName)}
          onError={pushError}
          onMarkName={sel.setHighlightName}
        />
      )}
      <EventsPane view={eventsView} info={info} fileStem={reportStem(report.summary.fileName)} />
    </div>
  );
}

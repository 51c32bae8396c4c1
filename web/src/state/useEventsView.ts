// The Events view's state (docs/timeline.md, "The Events view"): which
// timeline row it lists (per report, kept while the view is away), its
// result in the engine (run again when the row or the statistics range
// changes, the one it replaces released), and the links both ways: a row's
// "Show on timeline" asks the engine which event the row shows, and an
// event selected on the timeline selects its row. The row listed is
// published for the permalink, and a permalink's row opens the pane.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TimelineEvent, TimelineInfo } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { exportResult, type ExportFormat } from '../lib/download';
import { EVENTS_VIEW_SHEET, hasEventsView } from '../lib/events_view';
import { pagedEngineOf, type PagedEngine } from '../lib/paged_queries';
import { shownTimesOf, type DecodedResult } from '../lib/result';
import { useEngine } from './engine';
import { message, useErrors } from './errors';
import type { OpenReport } from './reports';
import type { FocusRows } from './useTableFocus';
import type { EventRef } from './useTimelineSelection';
import { useRun } from './useRun';
import { useView } from './view';

/** Per report: the row whose events the pane lists (absent: the pane is closed). */
const openRows = new Map<number, number>();
/** Per report: the permalink request applied last (a view coming back does not apply it again). */
const appliedRequest = new Map<number, number>();

export interface EventsView {
  /** The timeline row (track id) listed, null when the pane is closed. */
  track: number | null;
  open: (track: number) => void;
  close: () => void;
  /** The result shown (null while it runs); `runId` tells one run's result from the next. */
  result: DecodedResult | null;
  runId: number | null;
  resultId: number | undefined;
  running: boolean;
  error: string | null;
  /** The engine's calls of the paged result. */
  paged: PagedEngine | undefined;
  sortOrder: ((column: number, descending: boolean) => Promise<Uint32Array>) | undefined;
  exporting: ExportFormat | null;
  exportAs: (format: ExportFormat, stem: string) => void;
  /** The row to select: the one showing the event selected on the timeline. */
  focusRows: FocusRows | null;
  /** Row `row`'s event, brought into view on the timeline by `show`. */
  showRow: (row: number) => void;
}

export function useEventsView(
  report: OpenReport,
  /** The report's timeline rows (null while they are built): a permalink's row must be one with events. */
  info: TimelineInfo | null,
  /** The zero its time columns count from (the capture start). */
  zero: bigint,
  /** The event selected on the timeline (its row is selected in the pane). */
  selected: EventRef | null,
  /** Brings an event into view on the timeline, selected and spotlit. */
  show: (e: TimelineEvent) => void,
): EventsView {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const [track, setTrack] = useState<number | null>(() => openRows.get(report.id) ?? null);
  useEffect(() => {
    if (track === null) openRows.delete(report.id);
    else openRows.set(report.id, track);
  }, [report.id, track]);

  // The permalink: the row listed while shown, and a link's row opened once the rows are in.
  const { t } = useLang();
  const { eventsRequest, setShownEvents } = useView();
  useEffect(() => {
    const req = eventsRequest;
    if (!info || !req || req.report !== report.id || appliedRequest.get(report.id) === req.seq) return;
    appliedRequest.set(report.id, req.seq);
    if (hasEventsView(info.tracks[req.track])) setTrack(req.track);
    else pushError(t.linkEventsRowMissing(String(req.track)));
  }, [info, eventsRequest, report.id, pushError, t]);
  useEffect(() => setShownEvents(track === null ? null : { report: report.id, track }), [report.id, track, setShownEvents]);
  useEffect(() => () => setShownEvents(null), [setShownEvents]);

  const tf = report.timeFilter;
  const key = track === null ? '' : `${report.id}|${track}|${tf ? `${tf.filterTime}|${tf.filterHgtx}` : ''}`;
  const { run, running } = useRun(key, track !== null, EVENTS_VIEW_SHEET, () => client.eventsView(report.id, track!), zero);
  const shown = run && run.key === key ? run : null;
  const result = shown?.result ?? null;
  const resultId = shown?.resultId;
  const paged = useMemo(
    () => (resultId !== undefined && result ? pagedEngineOf(client, resultId, shownTimesOf(result)) : undefined),
    [client, resultId, result],
  );
  const sortOrder = useMemo(
    () => (resultId === undefined ? undefined : (column: number, descending: boolean) => client.sortOrder(resultId, column, descending)),
    [client, resultId],
  );

  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const exportAs = (format: ExportFormat, stem: string) => {
    if (resultId === undefined) return;
    setExporting(format);
    exportResult(client, resultId, EVENTS_VIEW_SHEET, stem, format)
      .catch((e) => pushError(message(e)))
      .finally(() => setExporting(null));
  };

  // An event selected on the timeline, on this row: its row selected and scrolled to.
  const [focusRows, setFocusRows] = useState<FocusRows | null>(null);
  useEffect(() => {
    if (!selected || selected.track !== track || resultId === undefined) return;
    let live = true;
    client
      .eventsViewRow(resultId, selected.event)
      .then((row) => live && row !== null && setFocusRows((f) => ({ rows: [row], seq: (f?.seq ?? 0) + 1 })))
      .catch((e) => pushError(message(e)));
    return () => {
      live = false;
    };
  }, [client, selected, track, resultId, pushError]);

  const showRow = (row: number) => {
    if (resultId === undefined) return;
    client
      .eventsViewEvent(resultId, row)
      .then(show)
      .catch((e) => pushError(message(e)));
  };

  const open = useCallback((t: number) => setTrack(t), []);
  const close = useCallback(() => setTrack(null), []);
  return {
    track,
    open,
    close,
    result,
    runId: shown?.id ?? null,
    resultId,
    running,
    error: shown?.error ?? null,
    paged,
    sortOrder,
    exporting,
    exportAs,
    focusRows,
    showRow,
  };
}

// The Events view's pane below the timeline (Nsight Systems' Events View):
// the events of one timeline row as the rules' table (search and filter,
// sort by any column, Duration sums, Export CSV / XLSX), each row's
// right-click offering "Show on timeline". Its rows stay in the engine and
// come a page at a time (state/useEventsView.ts).
import { useMemo } from 'react';
import type { TimelineInfo } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { eventsExportStem, eventsViewDecl } from '../lib/events_view';
import type { EventsView } from '../state/useEventsView';
import { ResultView } from './ResultView';
import { EngineText } from './EngineText';

const noop = () => {};

export function EventsPane({ view, info, fileStem }: { view: EventsView; info: TimelineInfo; fileStem: string }) {
  const { t } = useLang();
  const track = view.track === null ? null : (info.tracks[view.track] ?? null);
  const decl = useMemo(() => (view.result ? eventsViewDecl(view.result) : null), [view.result]);
  if (view.track === null || !track) return null;
  const status = view.error ? 'error' : view.running || !view.result ? 'running' : 'ready';
  return (
    <section
      className="events-pane"
      data-testid="events-view"
      data-track={view.track}
      data-group={track.group}
      data-label={track.label}
      data-context={track.context ?? ''}
      data-status={status}
      aria-label={t.eventsView}
    >
      <div className="events-pane-head">
        <strong>{t.eventsView}</strong>
        <span className="events-pane-row ellipsis" data-testid="events-row" title={`${track.group} · ${track.label}`}>
          {track.group} · {track.label}
        </span>
        <span className="spacer" />
        <button className="link-button" onClick={view.close} aria-label={t.close} title={t.close} data-testid="events-close">
          ✕
        </button>
      </div>
      {view.error ? (
        <div className="rule-error" role="alert" data-testid="events-error">
          <EngineText text={view.error} />
        </div>
      ) : view.result && decl && !view.running ? (
        <ResultView
          key={view.runId ?? 0}
          rule={decl}
          result={view.result}
          pieKey={null}
          onPieKey={noop}
          topN={10}
          onTopN={noop}
          onExport={(format) => view.exportAs(format, eventsExportStem(fileStem, track))}
          exporting={view.exporting}
          fileStem={fileStem}
          chartOpen={false}
          onToggleChart={noop}
          sortOrder={view.sortOrder}
          onPendingChange={noop}
          paged={view.paged}
          focusRows={view.focusRows}
          onShowRowOnTimeline={view.showRow}
        />
      ) : (
        <div className="placeholder muted">{t.running}</div>
      )}
    </section>
  );
}

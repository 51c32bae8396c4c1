// A drag selection's statistics under the timeline, as Nsight Systems'
// selection tooltip and its Events view give them: the selection's start
// (from the capture start, the absolute ns on hover) and duration, each PPU's
// active and idle share of it and the shares its kernels and its memory
// operations cover, and the events in it grouped by kind and name, a table
// the engine made (core/timeline/selection_stats.h) shown, sorted, searched
// and exported (CSV / XLSX, the bytes the CLI writes) as any rule's.
import { useMemo, useState } from 'react';
import type { EngineClient } from '../engine/client';
import type { DeviceSelectionStats } from '../engine/timeline_types';
import { useLang } from '../i18n/lang';
import { exportResult, type ExportFormat } from '../lib/download';
import { formatDecimal1, formatDurationNs, formatInt } from '../lib/format';
import { pagedEngineOf } from '../lib/paged_queries';
import { SELECTION_TABLE_NAME, selectionTableDecl } from '../lib/selection_table';
import type { SelectionStatsState } from '../state/useSelectionStats';
import { ResultView } from './ResultView';
import { TimeText } from './TimeText';
import { EngineText } from './EngineText';

interface Props {
  state: SelectionStatsState;
  client: EngineClient;
  zero: bigint;
  /** The report's file name without extension: the exports are <fileStem>_timeline_selection.csv / .xlsx. */
  fileStem: string;
  onError: (message: string) => void;
  /** A row's name marked on the timeline (its slices outlined, the others faded). */
  onMarkName: (name: string) => void;
}

const noop = () => {};

/** "83.3%", the exact ns of the part and of the selection on hover. */
function Share({ percent, part, whole, testId }: { percent: number; part: bigint; whole: bigint; testId: string }) {
  const { t } = useLang();
  return (
    <td className="num" title={t.selection.partOf(formatInt(part), formatInt(whole))} data-testid={testId} data-ns={String(part)}>
      <span className="share-bar" aria-hidden="true">
        <span style={{ width: `${Math.min(100, Math.max(0, percent))}%` }} />
      </span>
      {formatDecimal1(percent)}%
    </td>
  );
}

function DeviceRow({ d, whole }: { d: DeviceSelectionStats; whole: bigint }) {
  return (
    <tr data-device={d.device}>
      <td className="device-name" title={d.name}>
        {d.name}
      </td>
      <Share percent={d.activePercent} part={d.active} whole={whole} testId="sel-active" />
      <Share percent={d.idlePercent} part={d.idle} whole={whole} testId="sel-idle" />
      <Share percent={d.kernelPercent} part={d.kernel} whole={whole} testId="sel-kernel" />
      <Share percent={d.memoryPercent} part={d.memory} whole={whole} testId="sel-memory" />
    </tr>
  );
}

export function SelectionStatsPanel({ state, client, zero, fileStem, onError, onMarkName }: Props) {
  const { t } = useLang();
  const { stats, result, resultId, loading, error } = state;
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const rule = useMemo(() => (result ? selectionTableDecl(result) : null), [result]);
  const paged = useMemo(
    () => (resultId !== null && result?.paged ? pagedEngineOf(client, resultId) : undefined),
    [client, resultId, result],
  );
  const exportAs = async (format: ExportFormat) => {
    if (resultId === null) return;
    setExporting(format);
    try {
      await exportResult(client, resultId, SELECTION_TABLE_NAME, `${fileStem}_${SELECTION_TABLE_NAME}`, format);
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    } finally {
      setExporting(null);
    }
  };
  const status = error ? 'error' : loading || !stats ? 'loading' : 'ready';
  return (
    <section
      className={`selection-stats${loading ? ' stale' : ''}`}
      data-testid="selection-stats"
      data-status={status}
      data-from={stats ? String(stats.from) : undefined}
      data-to={stats ? String(stats.to) : undefined}
      aria-label={t.selection.title}
    >
      {error ? (
        <div className="rule-error" role="alert" data-testid="selection-error">
          <EngineText text={error} />
        </div>
      ) : !stats ? (
        <div className="placeholder muted">{t.selection.computing}</div>
      ) : (
        <>
          <div className="selection-head">
            <strong>{t.selection.title}</strong>
            <span data-testid="sel-start">
              {t.selection.start} <TimeText at={stats.from} zero={zero} signed />
            </span>
            <span data-testid="sel-duration" title={t.selection.exactNs(formatInt(stats.length))} data-ns={String(stats.length)}>
              {t.selection.duration} {formatDurationNs(Number(stats.length))}
            </span>
          </div>
          {stats.devices.length === 0 ? (
            <div className="muted small" data-testid="sel-no-devices">
              {t.selection.noDevices}
            </div>
          ) : (
            <table className="selection-devices" data-testid="selection-devices">
              <thead>
                <tr>
                  <th>PPU</th>
                  <th title={t.selection.activeTitle}>{t.selection.active}</th>
                  <th title={t.selection.idleTitle}>{t.selection.idle}</th>
                  <th title={t.selection.kernelTitle}>{t.selection.kernel}</th>
                  <th title={t.selection.memoryTitle}>{t.selection.memory}</th>
                </tr>
              </thead>
              <tbody>
                {stats.devices.map((d) => (
                  <DeviceRow key={d.device} d={d} whole={stats.length} />
                ))}
              </tbody>
            </table>
          )}
          <div className="selection-events-head muted small" title={t.selection.eventsTitle}>
            {t.selection.events}
          </div>
          {result && rule && (
            <ResultView
              key={resultId ?? -1}
              rule={rule}
              result={result}
              pieKey={null}
              onPieKey={noop}
              topN={10}
              onTopN={noop}
              onExport={exportAs}
              exporting={exporting}
              fileStem={fileStem}
              chartOpen={false}
              onToggleChart={noop}
              sortOrder={resultId === null ? undefined : (column, descending) => client.sortOrder(resultId, column, descending)}
              onPendingChange={noop}
              paged={paged}
              onMarkInTimeline={onMarkName}
            />
          )}
        </>
      )}
    </section>
  );
}

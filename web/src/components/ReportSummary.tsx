// The open report at a glance: what was opened, its source format, host,
// capture span, devices, processes, data tables.
import type { ReportSummary as Summary } from '../engine/types';
import { formatBytes, formatDurationNs, formatInt } from '../lib/format';
import { useLang } from '../i18n/lang';

function extraText(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(extraText).join(', ');
  return JSON.stringify(v);
}

/** Devices by name: [["PPU-ZW810E", [0, 1, 2]], ...]. */
function groupDevices(devices: Summary['devices']): [string, number[]][] {
  const m = new Map<string, number[]>();
  for (const d of devices) m.set(d.name, [...(m.get(d.name) ?? []), d.id]);
  return [...m];
}

export function ReportSummary({ summary }: { summary: Summary }) {
  const { t } = useLang();
  const [, first, more] = /^(.*?)( \(and \d+ more\))?$/s.exec(summary.name)!;
  const span =
    summary.captureStart !== null && summary.captureEnd !== null ? Number(summary.captureEnd - summary.captureStart) : null;
  return (
    <section className="summary" data-testid="report-summary" aria-label="Report summary">
      <h2 className="summary-file" title={summary.fileNames.join('\n')} data-testid="summary-file">
        {/* A long first name is cut short; "(and N more)" always shows. */}
        <span className="summary-file-first">{first}</span>
        {more && <span className="summary-file-more">{more}</span>}
      </h2>
      <dl className="summary-list">
        <dt>{t.size}</dt>
        <dd data-testid="summary-size" data-files={summary.fileNames.length}>
          {summary.fileNames.length > 1 ? `${summary.fileNames.length} files, ` : ''}
          {formatBytes(summary.fileSize)}
        </dd>
        {summary.hostName && (
          <>
            <dt>{t.host}</dt>
            <dd data-testid="summary-host">{summary.hostName}</dd>
          </>
        )}
        {span !== null && (
          <>
            <dt>{t.capture}</dt>
            <dd
              data-testid="summary-capture"
              title={`${formatInt(summary.captureStart!)} – ${formatInt(summary.captureEnd!)} ns`}
            >
              {formatDurationNs(span)}
            </dd>
          </>
        )}
        {summary.generator && (
          <>
            <dt>{t.generator}</dt>
            <dd data-testid="summary-generator" title={summary.generator}>
              {summary.generator}
            </dd>
          </>
        )}
        {summary.devices.length > 0 && (
          <>
            <dt>{t.devices}</dt>
            <dd data-testid="summary-devices" data-count={summary.devices.length}>
              {groupDevices(summary.devices).map(([name, ids]) => (
                <div key={name} title={`Device ${ids.join(', ')}`}>
                  {ids.length} × {name || 'PPU'} <span className="muted">({ids.join(', ')})</span>
                </div>
              ))}
            </dd>
          </>
        )}
        {summary.processes.length > 0 && (
          <>
            <dt>{t.processes}</dt>
            <dd data-testid="summary-processes" data-count={summary.processes.length}>
              {summary.processes
                .slice(0, 6)
                .map((p) => `${p.name || 'PID'} (${p.pid})`)
                .join(', ')}
              {summary.processes.length > 6 && <span className="muted"> +{summary.processes.length - 6} more</span>}
            </dd>
          </>
        )}
        {Object.entries(summary.extra).map(([k, v]) => (
          <FragmentRow key={k} label={k} value={extraText(v)} />
        ))}
        <dt>{t.data}</dt>
        <dd data-testid="summary-tables">
          {summary.tables.length === 0 ? (
            <span className="muted">no data tables</span>
          ) : (
            <details className="table-list">
              <summary>
                {summary.tables.length} table{summary.tables.length === 1 ? '' : 's'}
              </summary>
              {summary.tables.map((t) => (
                <span className="table-name" key={t}>
                  {t}
                </span>
              ))}
            </details>
          )}
        </dd>
      </dl>
    </section>
  );
}

function FragmentRow({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="ellipsis" title={value}>
        {value}
      </dd>
    </>
  );
}

// The open report at a glance, as Nsight Systems' Analysis Summary: what was
// opened, its source format, host, capture span and start, the target
// system and its environment, devices and their attributes, processes,
// threads, data tables.
import type { ReportSummary as Summary } from '../engine/types';
import { formatBytes, formatDurationNs, formatInt } from '../lib/format';
import {
  captureStartUtc,
  deviceCell,
  deviceColumnsOf,
  environmentOf,
  otherMeta,
  systemRows,
} from '../lib/session_info';
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
  const started = captureStartUtc(summary);
  const environment = environmentOf(summary.meta);
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
          {summary.fileNames.length > 1 ? t.nFiles(formatInt(summary.fileNames.length)) : ''}
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
        {started && (
          <>
            <dt>{t.captureStartUtc}</dt>
            <dd data-testid="summary-started">{started}</dd>
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
        {systemRows(summary.meta).map(([k, v]) => (
          <FragmentRow key={k} label={t.systemLabels[k]} value={v} testId={`summary-system-${k}`} />
        ))}
        {environment.length > 0 && (
          <>
            <dt>{t.environment}</dt>
            <dd data-testid="summary-environment">
              <details className="table-list">
                <summary>{t.environmentVariables(formatInt(environment.length))}</summary>
                <div className="summary-scroll-list">
                  {environment.map((e, i) => (
                    <div className="ellipsis" key={i} title={e}>
                      {e}
                    </div>
                  ))}
                </div>
              </details>
            </dd>
          </>
        )}
        {summary.devices.length > 0 && (
          <>
            <dt>{t.devices}</dt>
            <dd data-testid="summary-devices" data-count={summary.devices.length}>
              {groupDevices(summary.devices).map(([name, ids]) => (
                <div key={name} title={`${t.device} ${ids.join(', ')}`}>
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
              {summary.processes.length > 6 && (
                <span className="muted">{t.nMore(formatInt(summary.processes.length - 6))}</span>
              )}
            </dd>
          </>
        )}
        {summary.threadCount > 0 && (
          <>
            <dt>{t.threads}</dt>
            <dd data-testid="summary-threads" data-count={summary.threadCount}>
              <details className="table-list">
                <summary>
                  {t.namedThreads(formatInt(summary.threadCount))}
                  {summary.threads.length < summary.threadCount && (
                    <span className="muted">
                      {' '}
                      ({t.threadsShown(formatInt(summary.threads.length), formatInt(summary.threadCount))})
                    </span>
                  )}
                </summary>
                <div className="summary-scroll-list">
                  {summary.threads.map((th) => (
                    <div className="ellipsis" key={`${th.pid}/${th.tid}`} title={`PID ${th.pid}, TID ${th.tid}`}>
                      {th.name} <span className="muted">({th.tid})</span>
                    </div>
                  ))}
                </div>
              </details>
            </dd>
          </>
        )}
        {otherMeta(summary.meta).map(([k, v]) => (
          <FragmentRow key={k} label={t.metaLabels[k] ?? k} value={v} testId={`summary-meta-${k}`} />
        ))}
        {Object.entries(summary.extra).map(([k, v]) => (
          <FragmentRow key={k} label={k} value={extraText(v)} />
        ))}
        <dt>{t.data}</dt>
        <dd data-testid="summary-tables">
          {summary.tables.length === 0 ? (
            <span className="muted">{t.noDataTables}</span>
          ) : (
            <details className="table-list">
              <summary>{t.nTables(summary.tables.length)}</summary>
              {summary.tables.map((t) => (
                <span className="table-name" key={t}>
                  {t}
                </span>
              ))}
            </details>
          )}
        </dd>
      </dl>
      {summary.devices.length > 0 && <DeviceAttributes devices={summary.devices} />}
    </section>
  );
}

/** TARGET_INFO_PPU, one row a device, the columns some device has a value for. */
function DeviceAttributes({ devices }: { devices: Summary['devices'] }) {
  const { t } = useLang();
  const columns = deviceColumnsOf(devices);
  return (
    <details className="device-attributes" data-testid="summary-device-attributes">
      <summary>{t.deviceAttributes}</summary>
      <div className="device-attributes-scroll">
        <table>
          <thead>
            <tr>
              <th>{t.device}</th>
              {columns.map((c) => (
                <th key={c}>{t.deviceColumnLabels[c]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {devices.map((d) => (
              <tr key={d.id}>
                <td title={d.name}>
                  {d.id} {d.name}
                </td>
                {columns.map((c) => (
                  <td key={c} data-column={c}>
                    {deviceCell(d, c, formatBytes)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

function FragmentRow({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd className="ellipsis" title={value} data-testid={testId}>
        {value}
      </dd>
    </>
  );
}

// The compare view's information table (对比信息): per report its device,
// alias (double-click to edit; the legend and the table headers use it),
// file and statistics time range, with a button that swaps base and target.
import { useState } from 'react';
import { formatSinceZero, timeZeroOf } from '../lib/time_zero';
import type { OpenReport } from '../state/reports';
import { useLang } from '../i18n/lang';

function deviceName(r: OpenReport): string {
  const names = [...new Set(r.summary.devices.map((d) => d.name).filter(Boolean))];
  return names.length === 0 ? '-' : names.join(', ');
}

function timeRange(r: OpenReport): string {
  const tf = r.timeFilter;
  if (!tf?.window) return 'whole capture';
  // Each report's own zero (its capture start).
  const zero = timeZeroOf(r.summary.captureStart);
  const rel = (ns: bigint | null, open: string) => (ns === null ? open : formatSinceZero(ns, zero));
  return `${rel(tf.window[0], 'start')} – ${rel(tf.window[1], 'end')}${tf.filterHgtx ? ` (${tf.filterHgtx})` : ''}`;
}

/** The range's absolute ns on the report's clock (its hover), undefined for the whole capture. */
function absoluteRange(r: OpenReport, span: (from: string, to: string) => string): string | undefined {
  const w = r.timeFilter?.window;
  return w ? span(w[0] === null ? '…' : String(w[0]), w[1] === null ? '…' : String(w[1])) : undefined;
}

function Alias({ report, onRename }: { report: OpenReport; onRename: (alias: string) => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    const done = () => {
      const v = editing.trim();
      if (v) onRename(v);
      setEditing(null);
    };
    return (
      <input
        className="input alias-input"
        autoFocus
        value={editing}
        onChange={(e) => setEditing(e.target.value)}
        onBlur={done}
        onKeyDown={(e) => {
          if (e.key === 'Enter') done();
          if (e.key === 'Escape') setEditing(null);
        }}
        aria-label="Alias"
        data-testid="alias-input"
      />
    );
  }
  return (
    <span className="alias" title="Double-click to rename" onDoubleClick={() => setEditing(report.alias)} data-testid="alias">
      {report.alias}
    </span>
  );
}

export function CompareInfo({
  base,
  target,
  onSwap,
  onRename,
}: {
  base: OpenReport;
  target: OpenReport;
  onSwap: () => void;
  onRename: (id: number, alias: string) => void;
}) {
  const sides = [base, target];
  const { t } = useLang();
  return (
    <table className="compare-info" data-testid="compare-info">
      <thead>
        <tr>
          <th />
          <th>{t.base}</th>
          <th>{t.target}</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th>
            {t.device}{' '}
            <button className="link-button small" onClick={onSwap} title="Swap base and target" data-testid="swap">
              ⇄
            </button>
          </th>
          {sides.map((r) => (
            <td key={r.id}>{deviceName(r)}</td>
          ))}
        </tr>
        <tr>
          <th>{t.alias}</th>
          {sides.map((r) => (
            <td key={r.id} data-testid={r === base ? 'alias-base' : 'alias-target'}>
              <Alias report={r} onRename={(a) => onRename(r.id, a)} />
            </td>
          ))}
        </tr>
        <tr>
          <th>{t.report}</th>
          {sides.map((r) => (
            <td key={r.id} className="ellipsis" title={r.summary.path}>
              {r.summary.fileName}
            </td>
          ))}
        </tr>
        <tr>
          <th>{t.timeRange}</th>
          {sides.map((r) => (
            <td key={r.id} data-testid={r === base ? 'range-base' : 'range-target'} title={absoluteRange(r, t.absoluteSpan)}>
              {timeRange(r)}
            </td>
          ))}
        </tr>
      </tbody>
    </table>
  );
}

// The open reports, one tab each: click to show one, × to close it. The
// compare view's base is the shown report, its target marked.
import { useLang } from '../i18n/lang';
import { useReports } from '../state/reports';

export function ReportTabs() {
  const { reports, active, target, select, close } = useReports();
  const { t } = useLang();
  return (
    <nav className="report-tabs" aria-label={t.openReports} data-testid="report-tabs">
      {reports.map((r) => (
        <span
          key={r.id}
          className={`report-tab${r.id === active?.id ? ' selected' : ''}${r.id === target?.id ? ' target' : ''}`}
          data-testid="report-tab"
          data-alias={r.alias}
        >
          <button
            className="report-tab-name"
            onClick={() => select(r.id)}
            aria-pressed={r.id === active?.id}
            title={r.summary.path || r.summary.fileName}
          >
            {r.summary.fileName}
            {r.id === target?.id && <span className="muted small"> (target)</span>}
          </button>
          <button
            className="report-tab-close"
            onClick={() => void close(r.id)}
            aria-label={`${t.close} ${r.summary.fileName}`}
            title="Close this report"
          >
            ×
          </button>
        </span>
      ))}
    </nav>
  );
}

// The header's open controls: pick files (one report), one of the two demo
// reports or both to compare; a progress bar while a report loads.
import { useRef } from 'react';
import { formatBytes } from '../lib/format';
import { useLang } from '../i18n/lang';
import { DEMOS, type DemoName, type LoadingState } from '../state/reports';


// The picker's filter: a hint for the dialog only, the engine decides by content.
const ACCEPT = [
  '.asysrep',
  '.sqlite',
  '.sqlite3',
  '.json',
  '.gz',
  'application/json',
  'application/gzip',
  'application/x-gzip',
  'application/octet-stream',
  'application/vnd.sqlite3',
].join(',');

export function OpenBar({
  onFiles,
  onDemo,
  onDemoPair,
  loading,
}: {
  /** All files picked at once: they open as one report. */
  onFiles: (files: File[]) => void;
  onDemo: (name: DemoName) => void;
  /** Both demo reports, to compare. */
  onDemoPair: () => void;
  loading: LoadingState | null;
}) {
  const { t } = useLang();
  const input = useRef<HTMLInputElement>(null);
  const pct = loading && loading.total > 0 ? Math.min(100, (100 * loading.loaded) / loading.total) : null;
  return (
    <div className="open-bar">
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT}
        className="visually-hidden"
        data-testid="file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          if (files.length > 0) onFiles(files);
          e.target.value = '';
        }}
      />
      <button
        className="button primary"
        onClick={() => input.current?.click()}
        disabled={!!loading}
        title={`${t.openReportTitle} ${t.openable}`}
      >
        {t.openReport}
      </button>
      {DEMOS.map((d) => (
        <button
          key={d}
          className="button"
          data-testid={`demo-${d}`}
          onClick={() => onDemo(d)}
          disabled={!!loading}
          title={t.openDemoTitle(`demo-${d}.asysrep`)}
        >
          {t.openDemo(d)}
        </button>
      ))}
      <button
        className="button"
        data-testid="demo-pair"
        onClick={onDemoPair}
        disabled={!!loading}
        title={t.comparePairTitle}
      >
        {t.comparePair}
      </button>
      {loading && (
        <div className="progress" data-testid="progress" role="status">
          <span className="progress-label">{loading.label}</span>
          <span className="progress-track">
            <span
              className={pct === null ? 'progress-fill indeterminate' : 'progress-fill'}
              style={pct === null ? undefined : { width: `${pct}%` }}
            />
          </span>
          {loading.loaded > 0 && (
            <span className="progress-bytes">
              {formatBytes(loading.loaded)}
              {loading.total > 0 ? ` / ${formatBytes(loading.total)}` : ''}
            </span>
          )}
        </div>
      )}
    </div>
  );
}

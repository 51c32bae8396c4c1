// The header's open controls: pick a file, or one of the two demo reports;
// a progress bar while a report loads.
import { useRef } from 'react';
import { formatBytes } from '../lib/format';

export interface LoadingState {
  label: string;
  loaded: number;
  total: number;
}

export const DEMOS = ['base', 'slow'] as const;
export type DemoName = (typeof DEMOS)[number];

export function OpenBar({
  onFile,
  onDemo,
  loading,
}: {
  onFile: (file: File) => void;
  onDemo: (name: DemoName) => void;
  loading: LoadingState | null;
}) {
  const input = useRef<HTMLInputElement>(null);
  const pct = loading && loading.total > 0 ? Math.min(100, (100 * loading.loaded) / loading.total) : null;
  return (
    <div className="open-bar">
      <input
        ref={input}
        type="file"
        accept=".asysrep,application/octet-stream,application/vnd.sqlite3"
        className="visually-hidden"
        data-testid="file-input"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = '';
        }}
      />
      <button className="button primary" onClick={() => input.current?.click()} disabled={!!loading}>
        Open report…
      </button>
      {DEMOS.map((d) => (
        <button
          key={d}
          className="button"
          data-testid={`demo-${d}`}
          onClick={() => onDemo(d)}
          disabled={!!loading}
          title={`Open the bundled demo report demo-${d}.asysrep`}
        >
          Open demo report ({d})
        </button>
      ))}
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

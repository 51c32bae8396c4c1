// The viewer: open reports (drop, pick, demo; several at once), look at one
// in the stats view or compare two in the compare view. State lives in
// web/src/state (engine, reports, rule options, view preferences), so the two
// views share it without passing it down by hand.
import { useCallback, useEffect, useRef, useState } from 'react';
import { DropZone } from './components/DropZone';
import { ErrorBanner } from './components/ErrorBanner';
import { LinkNotice } from './components/LinkNotice';
import { DEMOS, OPENABLE, OpenBar, type DemoName } from './components/OpenBar';
import { ReportTabs } from './components/ReportTabs';
import { EngineProvider, useEngine } from './state/engine';
import { ErrorsProvider, useErrors } from './state/errors';
import { LangProvider } from './i18n/lang';
import type { ViewName } from './lib/permalink';
import { usePermalink } from './state/permalink';
import { PrefsProvider } from './state/prefs';
import { ReportsProvider, useReports } from './state/reports';
import { RuleConfigProvider } from './state/ruleConfig';
import { CompareView } from './views/CompareView';
import { StatsView } from './views/StatsView';

export function App() {
  return (
    <LangProvider>
      <EngineProvider>
        <ErrorsProvider>
          <RuleConfigProvider>
            <ReportsProvider>
              <PrefsProvider>
                <Shell />
              </PrefsProvider>
            </ReportsProvider>
          </RuleConfigProvider>
        </ErrorsProvider>
      </EngineProvider>
    </LangProvider>
  );
}

function Shell() {
  const { pending } = useEngine();
  const { errors, dismiss } = useErrors();
  const reports = useReports();
  const { active, loading } = reports;
  const [view, setView] = useState<ViewName>('stats');
  const [viewBusy, setViewBusy] = useState(false);
  const onBusy = useCallback((b: boolean) => setViewBusy(b), []);

  // The page's idle signal for tests and tools: nothing loading, asked or pending.
  const busy = !!loading || pending > 0 || viewBusy;
  useEffect(() => {
    document.body.dataset.state = busy ? 'busy' : 'idle';
  }, [busy]);

  // A performance mark for bench/browser-run.mjs: a report's summary shown.
  useEffect(() => {
    if (active && typeof performance !== 'undefined' && performance.mark) {
      performance.mark('asys:summary', { detail: { file: active.summary.fileName } });
    }
  }, [active]);

  // ?demo=base|slow opens a demo report on arrival; ?demo=pair both, in the compare view.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const demo = new URLSearchParams(location.search).get('demo');
    if (demo === 'pair') {
      setView('compare');
      void reports.openDemoPair();
    } else if (demo && (DEMOS as readonly string[]).includes(demo)) {
      void reports.openDemo(demo as DemoName);
    }
  }, [reports]);

  const openBar = (
    <OpenBar
      onFiles={reports.openFiles}
      onDemo={reports.openDemo}
      onDemoPair={async () => {
        await reports.openDemoPair();
        setView('compare');
      }}
      loading={loading}
    />
  );
  const canCompare = reports.reports.length >= 2;
  const shownView: ViewName = view === 'compare' && canCompare ? 'compare' : 'stats';
  const link = usePermalink(shownView, setView);

  return (
    <div className="app" data-testid="app">
      <DropZone onFiles={reports.openFiles} />
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden>
            ◔
          </span>
          <span className="brand-name">asys</span>
          <span className="brand-sub">report viewer</span>
        </div>
        {active && (
          <nav className="view-tabs" aria-label="Views">
            <button
              className={`view-tab${view === 'stats' ? ' selected' : ''}`}
              aria-pressed={view === 'stats'}
              onClick={() => setView('stats')}
              data-testid="view-stats"
            >
              Statistics
            </button>
            <button
              className={`view-tab${view === 'compare' ? ' selected' : ''}`}
              aria-pressed={view === 'compare'}
              onClick={() => setView('compare')}
              disabled={!canCompare}
              title={canCompare ? 'Compare two open reports' : 'Open a second report to compare with'}
              data-testid="view-compare"
            >
              Compare
            </button>
          </nav>
        )}
        {active && openBar}
      </header>
      {reports.reports.length > 0 && <ReportTabs />}
      <ErrorBanner errors={errors} onDismiss={dismiss} />
      <LinkNotice status={link} />
      {!active ? (
        <main className="landing">
          <div className="landing-card" data-testid="landing">
            <div className="landing-icon" aria-hidden>
              ⇣
            </div>
            <h1>Drop a report anywhere on this page</h1>
            <p className="landing-formats" data-testid="openable">
              Opens: {OPENABLE}.
            </p>
            <p className="muted">
              The report stays on this machine: it is read in the browser by the WebAssembly engine, nothing is
              uploaded.
            </p>
            <div className="landing-actions">{openBar}</div>
          </div>
        </main>
      ) : shownView === 'compare' ? (
        <CompareView busy={busy} onBusy={onBusy} />
      ) : (
        <StatsView report={active} busy={busy} onBusy={onBusy} />
      )}
    </div>
  );
}

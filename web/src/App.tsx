// The viewer: open reports (drop, pick, demo; several at once), look at one
// in the stats view or the timeline, or compare two in the compare view. State lives in
// web/src/state (engine, reports, rule options, view preferences), so the two
// views share it without passing it down by hand.
import { useCallback, useEffect, useRef, useState } from 'react';
import { DropZone } from './components/DropZone';
import { ErrorBanner } from './components/ErrorBanner';
import { LangSwitch } from './components/LangSwitch';
import { LinkNotice } from './components/LinkNotice';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { OpenBar } from './components/OpenBar';
import { ReportTabs } from './components/ReportTabs';
import { EngineProvider, useEngine } from './state/engine';
import { ErrorsProvider, useErrors } from './state/errors';
import { LangProvider, useLang } from './i18n/lang';
import type { ViewName } from './lib/permalink';
import { shortcutFor } from './lib/shortcuts';
import { usePermalink } from './state/permalink';
import { PrefsProvider } from './state/prefs';
import { DEMOS, ReportsProvider, useReports, type DemoName } from './state/reports';
import { RuleConfigProvider } from './state/ruleConfig';
import { ThemeProvider, useTheme } from './state/theme';
import { useView, ViewProvider } from './state/view';
import { CompareView } from './views/CompareView';
import { StatsView } from './views/StatsView';
import { TimelineView } from './views/TimelineView';

export function App() {
  return (
    <ThemeProvider>
      <LangProvider>
        <EngineProvider>
          <ErrorsProvider>
            <RuleConfigProvider>
              <ReportsProvider>
                <PrefsProvider>
                  <ViewProvider>
                    <Shell />
                  </ViewProvider>
                </PrefsProvider>
              </ReportsProvider>
            </RuleConfigProvider>
          </ErrorsProvider>
        </EngineProvider>
      </LangProvider>
    </ThemeProvider>
  );
}

function Shell() {
  const { lang, setLang, t } = useLang();
  const { theme, toggleTheme } = useTheme();
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const { pending } = useEngine();
  const { errors, dismiss } = useErrors();
  const reports = useReports();
  const { active, loading } = reports;
  const { view, setView } = useView();
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
  const shownView: ViewName = view === 'compare' && !canCompare ? 'stats' : view;
  const link = usePermalink(shownView, setView);

  // The keyboard shortcuts (lib/shortcuts.ts), never while typing in a field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = shortcutFor({
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        defaultPrevented: e.defaultPrevented,
        target: e.target as HTMLElement | null,
      });
      if (!action) return;
      e.preventDefault();
      if (action === 'help') setShortcutsOpen(true);
      else if (action === 'searchRules') document.querySelector<HTMLInputElement>('.rule-search')?.focus();
      else if (action === 'statsView') setView('stats');
      else if (action === 'compareView' && canCompare) setView('compare');
      else if (action === 'theme') toggleTheme();
      else if (action === 'language') setLang(lang === 'zh' ? 'en' : 'zh');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canCompare, toggleTheme, setLang, lang]);

  return (
    <div className="app" data-testid="app">
      <DropZone onFiles={reports.openFiles} />
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden>
            ◔
          </span>
          <span className="brand-name">asys</span>
          <span className="brand-sub">{t.brandSub}</span>
        </div>
        {active && (
          <nav className="view-tabs" aria-label="Views">
            <button
              className={`view-tab${view === 'stats' ? ' selected' : ''}`}
              aria-pressed={view === 'stats'}
              onClick={() => setView('stats')}
              data-testid="view-stats"
            >
              {t.viewStats}
            </button>
            <button
              className={`view-tab${view === 'compare' ? ' selected' : ''}`}
              aria-pressed={view === 'compare'}
              onClick={() => setView('compare')}
              disabled={!canCompare}
              title={canCompare ? t.compareTitle : t.compareNeedsTwo}
              data-testid="view-compare"
            >
              {t.viewCompare}
            </button>
            <button
              className={`view-tab${view === 'timeline' ? ' selected' : ''}`}
              aria-pressed={view === 'timeline'}
              onClick={() => setView('timeline')}
              title={t.timelineTitle}
              data-testid="view-timeline"
            >
              {t.viewTimeline}
            </button>
          </nav>
        )}
        {active && openBar}
        <div className="header-controls">
          <LangSwitch />
          <button
            className="button icon-button"
            onClick={toggleTheme}
            title={theme === 'dark' ? t.toLight : t.toDark}
            aria-label={theme === 'dark' ? t.toLight : t.toDark}
            data-testid="theme-toggle"
          >
            {theme === 'dark' ? '☀' : '☾'}
          </button>
          <button
            className="button icon-button"
            onClick={() => setShortcutsOpen(true)}
            title={`${t.shortcutsTitle} (?)`}
            aria-label={t.shortcutsTitle}
            data-testid="shortcuts-button"
          >
            ?
          </button>
        </div>
        <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} />
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
            <h1>{t.landingDrop}</h1>
            <p className="landing-formats" data-testid="openable">
              {t.landingOpens} {t.openable}
            </p>
            <p className="muted">{t.landingLocal}</p>
            <div className="landing-actions">{openBar}</div>
          </div>
        </main>
      ) : shownView === 'compare' ? (
        <CompareView busy={busy} onBusy={onBusy} />
      ) : view === 'timeline' ? (
        <TimelineView onBusy={onBusy} />
      ) : (
        <StatsView report={active} busy={busy} onBusy={onBusy} />
      )}
    </div>
  );
}

// The viewer: open a report (drop, pick, demo), pick a rule, adjust its
// settings; the rule runs in the engine worker and its table and pie chart
// show here.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EngineClient, type OpenedReport, type Progress } from './engine/client';
import type { EngineCapabilities, RuleConfig } from './engine/protocol';
import type { GlobalOptionSpec, OptionSpec, ReportSummary as Summary, RuleDecl } from './engine/types';
import { buildOptions, cliGlobalOptions, cliSpec, defaultSettings, type SettingValues } from './lib/options';
import { decodeResult, type DecodedResult } from './lib/result';
import { DropZone } from './components/DropZone';
import { ErrorBanner, type ErrorItem } from './components/ErrorBanner';
import { DEMOS, OPENABLE, OpenBar, type DemoName, type LoadingState } from './components/OpenBar';
import { ReportSummary } from './components/ReportSummary';
import { ResultView } from './components/ResultView';
import { RuleList } from './components/RuleList';
import { SettingsPanel, type GlobalSettings, type KnownId } from './components/SettingsPanel';
import { TimeFilter, type AppliedTimeFilter } from './components/TimeFilter';

/** A performance mark with details, where the browser has the User Timing API. */
function mark(name: string, detail: Record<string, unknown>): void {
  if (typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(name, { detail });
}

interface RunState {
  id: number;
  key: string;
  rule: string;
  result?: DecodedResult;
  /** The worker's id of the run, for the engine's sortOrder. */
  runId?: number;
  error?: string;
}

/** Ids a report lists for an IdList option: its devices, its processes. */
function knownIds(summary: Summary, opt: OptionSpec): KnownId[] {
  const what = `${opt.name} ${opt.label}`.toLowerCase();
  if (what.includes('device')) {
    return summary.devices.map((d) => ({ id: d.id, title: d.name ? `${d.name} (${d.id})` : `Device ${d.id}` }));
  }
  if (what.includes('process') || what.includes('pid')) {
    return summary.processes.map((p) => ({ id: p.pid, title: p.name ? `${p.name} (PID ${p.pid})` : `PID ${p.pid}` }));
  }
  return [];
}

function assetUrl(path: string): string {
  return new URL(path, document.baseURI).href;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function App() {
  const client = useMemo(() => new EngineClient(assetUrl('engine/asys_engine.mjs')), []);
  const [pending, setPending] = useState(0);
  const [loading, setLoading] = useState<LoadingState | null>(null);
  const [summary, setSummary] = useState<Summary | null>(null);
  const [reportId, setReportId] = useState(0);
  const [rules, setRules] = useState<RuleDecl[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [settings, setSettings] = useState<Record<string, SettingValues>>({});
  const [run, setRun] = useState<RunState | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [pieKeys, setPieKeys] = useState<Record<string, string>>({});
  const [topN, setTopN] = useState(10);
  const [exporting, setExporting] = useState(false);
  const [chartOpen, setChartOpen] = useState(true);
  const [viewPending, setViewPending] = useState(false);
  const [timeFilter, setTimeFilter] = useState<AppliedTimeFilter | null>(null);
  const timeFilterRef = useRef(timeFilter);
  timeFilterRef.current = timeFilter;
  const [capabilities, setCapabilities] = useState<EngineCapabilities>({
    sortOrder: false,
    setTimeFilter: false,
    ruleConfig: false,
  });
  // The global rule options saved so far (option name -> entries); an option
  // absent here has its declared defaults. Kept across reports, as the engine keeps it.
  const [ruleConfig, setRuleConfig] = useState<RuleConfig>({});
  const ruleConfigRef = useRef(ruleConfig);
  ruleConfigRef.current = ruleConfig;
  const errorId = useRef(0);
  const runId = useRef(0);

  useEffect(() => client.onBusyChange(setPending), [client]);

  // Performance marks for bench/browser-run.mjs: a report opened (asys:open),
  // its summary shown, and each rule's table shown, after React committed it.
  useEffect(() => {
    if (summary) mark('asys:summary', { file: summary.fileName });
  }, [summary]);
  useEffect(() => {
    if (run?.result) mark('asys:table', { rule: run.rule, rows: run.result.rowCount });
  }, [run]);

  const pushError = useCallback((text: string) => {
    const id = ++errorId.current;
    setErrors((es) => [...es.slice(-3), { id, text }]);
  }, []);

  const openWith = useCallback(
    async (label: string, open: (onProgress: (p: Progress) => void) => Promise<OpenedReport>) => {
      setLoading({ label, loaded: 0, total: 0 });
      try {
        const opened = await open((p) => setLoading({ label, ...p }));
        // A new worker (after an engine failure) starts without the saved global options.
        if (opened.capabilities.ruleConfig && Object.keys(ruleConfigRef.current).length > 0) {
          await client.setRuleConfig(ruleConfigRef.current);
        }
        setLoading({ label: 'Reading rules…', loaded: 0, total: 0 });
        // The stats view runs the rules of one report; compare rules need two.
        const list = (await client.listRules()).filter((r) => !r.compare);
        setSummary(opened.summary);
        setCapabilities(opened.capabilities);
        setTimeFilter(null); // a newly opened report starts with the whole capture
        setRules(list);
        setReportId((n) => n + 1);
        setErrors([]);
        setSelected((prev) =>
          prev && list.some((r) => r.name === prev)
            ? prev
            : (list.find((r) => r.available)?.name ?? list[0]?.name ?? null),
        );
      } catch (e) {
        pushError(message(e));
        // The worker reopened the previous report, which resets the engine's
        // time range: set it again so the page and the engine agree.
        const tf = timeFilterRef.current;
        if (tf) await client.setTimeFilter(tf.filterTime, tf.filterHgtx).catch(() => setTimeFilter(null));
      } finally {
        setLoading(null);
      }
    },
    [client, pushError],
  );

  // All files given at once open as one report (e.g. the rank traces of one job).
  const openFiles = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      mark('asys:open', { files: files.map((f) => f.name) });
      const more = files.length > 1 ? ` and ${files.length - 1} more` : '';
      return openWith(`Opening ${files[0].name}${more}…`, (onProgress) => client.open(files, onProgress));
    },
    [client, openWith],
  );

  const openDemo = useCallback(
    (name: DemoName) => {
      const fileName = `demo-${name}.asysrep`;
      return openWith(`Loading ${fileName}…`, (onProgress) =>
        client.openDemo(assetUrl(`demo/${fileName}`), fileName, onProgress),
      );
    },
    [client, openWith],
  );

  // ?demo=base|slow opens a demo report on arrival.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const demo = new URLSearchParams(location.search).get('demo');
    if (demo && (DEMOS as readonly string[]).includes(demo)) void openDemo(demo as DemoName);
  }, [openDemo]);

  const rule = rules.find((r) => r.name === selected) ?? null;
  const values = rule ? (settings[rule.name] ?? defaultSettings(rule)) : {};
  const built = useMemo(() => (rule ? buildOptions(rule, values) : null), [rule, values]);
  const optionsKey = built ? JSON.stringify(built.options) : '';
  const filterKey = timeFilter ? `${timeFilter.filterTime}|${timeFilter.filterHgtx}` : '';
  // Only the global options the rule reads: other rules keep their result.
  const globalKey = rule ? JSON.stringify(rule.globalOptions.map((g) => ruleConfig[g.name] ?? null)) : '';
  const runKey = rule ? `${reportId}|${filterKey}|${rule.name}|${optionsKey}|${globalKey}` : '';
  const canRun = !!summary && !!rule && !!built && Object.keys(built.errors).length === 0;

  // Run whenever the report, the rule or its settings change (debounced for typing).
  const latestKey = useRef('');
  latestKey.current = runKey;
  useEffect(() => {
    if (!canRun || !rule || !built || run?.key === runKey) return;
    const key = runKey;
    const timer = setTimeout(async () => {
      const id = ++runId.current;
      try {
        const raw = await client.run(rule.name, built.options);
        if (latestKey.current !== key) return;
        setRun({ id, key, rule: rule.name, result: decodeResult(raw), runId: raw.runId });
      } catch (e) {
        if (latestKey.current !== key) return;
        setRun({ id, key, rule: rule.name, error: message(e) });
      }
    }, 150);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey, canRun]);

  const running = canRun && run?.key !== runKey;
  const busy = !!loading || pending > 0 || running || exporting || viewPending;
  useEffect(() => {
    document.body.dataset.state = busy ? 'busy' : 'idle';
  }, [busy]);

  const setValue = (name: string, value: string) => {
    if (!rule) return;
    setSettings((s) => ({ ...s, [rule.name]: { ...(s[rule.name] ?? defaultSettings(rule)), [name]: value } }));
  };

  const applyTimeFilter = async (filterTime: string, filterHgtx: string) => {
    const window = await client.setTimeFilter(filterTime, filterHgtx);
    setTimeFilter(filterTime || filterHgtx ? { filterTime, filterHgtx, window } : null);
  };

  const globalSettings: GlobalSettings | undefined = capabilities.ruleConfig
    ? {
        entries: (spec: GlobalOptionSpec) => ruleConfig[spec.name] ?? spec.defaults,
        check: (name, value) => client.checkRuleOption(name, value),
        save: async (name, entries) => {
          const spec = rules.flatMap((r) => r.globalOptions).find((g) => g.name === name);
          const next = { ...ruleConfig };
          // The declared defaults (or nothing) are no configuration at all.
          const isDefault = entries.length === 0 || (spec && JSON.stringify(entries) === JSON.stringify(spec.defaults));
          if (isDefault) delete next[name];
          else next[name] = entries;
          await client.setRuleConfig(next);
          setRuleConfig(next);
        },
      }
    : undefined;

  const exportCsv = async () => {
    if (!rule || !built || !summary) return;
    setExporting(true);
    try {
      const text = await client.csv(rule.name, built.options);
      const base = summary.fileName.replace(/\.(asysrep|sqlite3?|json|json\.gz|gz)$/i, '') || 'report';
      downloadText(text, `${base}_${rule.name}.csv`);
    } catch (e) {
      pushError(message(e));
    } finally {
      setExporting(false);
    }
  };

  // The engine sorts a result while it is its last run (sorting here is the fallback).
  const sortOrderFor = (r: RunState) => {
    const runId = r.runId;
    if (!capabilities.sortOrder || runId === undefined) return undefined;
    return (column: number, descending: boolean) => client.sortOrder(runId, column, descending);
  };

  const status = !rule ? 'none' : running ? 'running' : run?.error ? 'error' : run?.result ? 'ready' : 'none';
  const shown = run && rule && run.rule === rule.name ? run : null;

  return (
    <div className="app" data-testid="app">
      <DropZone onFiles={openFiles} />
      <header className="app-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden>
            ◔
          </span>
          <span className="brand-name">asys stats</span>
          <span className="brand-sub">report viewer</span>
        </div>
        {summary && <OpenBar onFiles={openFiles} onDemo={openDemo} loading={loading} />}
      </header>
      <ErrorBanner errors={errors} onDismiss={(id) => setErrors((es) => es.filter((e) => e.id !== id))} />
      {!summary ? (
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
            <div className="landing-actions">
              <OpenBar onFiles={openFiles} onDemo={openDemo} loading={loading} />
            </div>
          </div>
        </main>
      ) : (
        <div className="workspace">
          <aside className="sidebar">
            <ReportSummary summary={summary} />
            {capabilities.setTimeFilter && (
              <TimeFilter
                key={reportId}
                applied={timeFilter}
                captureStart={summary.captureStart}
                onApply={applyTimeFilter}
                busy={busy}
              />
            )}
            <RuleList rules={rules} selected={selected} onSelect={setSelected} />
          </aside>
          <main className="content">
            {rule ? (
              <>
                <div className="rule-header">
                  <div className="rule-heading">
                    <h1 data-testid="rule-title">{rule.title}</h1>
                    <code className="cli-spec" title="The same rule on the command line">
                      asys {rule.command}{timeFilter?.filterHgtx ? ` --filter-hgtx ${timeFilter.filterHgtx}` : ''}
                      {timeFilter?.filterTime && !timeFilter.filterHgtx ? ` --filter-time ${timeFilter.filterTime}` : ''} -r{' '}
                      {cliSpec(rule, built?.options ?? {})}
                      {cliGlobalOptions(rule, ruleConfig)}
                    </code>
                    {running && (
                      <span className="running" role="status">
                        <span className="spinner" aria-hidden /> Running…
                      </span>
                    )}
                  </div>
                  {rule.description && (
                    <p className="rule-description" title={rule.description}>
                      {rule.description}
                    </p>
                  )}
                  <SettingsPanel
                    rule={rule}
                    values={values}
                    errors={built?.errors ?? {}}
                    knownIds={(opt) => knownIds(summary, opt)}
                    onChange={setValue}
                    onReset={() => setSettings((s) => ({ ...s, [rule.name]: defaultSettings(rule) }))}
                    global={globalSettings}
                  />
                </div>
                <section
                  className={`result${running ? ' stale' : ''}`}
                  data-testid="result"
                  data-rule={rule.name}
                  data-status={status}
                >
                  {shown?.error && !running ? (
                    <div className="rule-error" role="alert" data-testid="rule-error">
                      <strong>{rule.available ? 'The rule failed' : 'This report lacks the data for this rule'}</strong>
                      <div>{shown.error}</div>
                    </div>
                  ) : shown?.result ? (
                    <ResultView
                      key={shown.id}
                      rule={rule}
                      result={shown.result}
                      pieKey={pieKeys[rule.name] ?? null}
                      onPieKey={(k) => setPieKeys((p) => ({ ...p, [rule.name]: k }))}
                      topN={topN}
                      onTopN={setTopN}
                      onExport={exportCsv}
                      exporting={exporting}
                      chartOpen={chartOpen}
                      onToggleChart={() => setChartOpen((o) => !o)}
                      sortOrder={sortOrderFor(shown)}
                      onPendingChange={setViewPending}
                    />
                  ) : (
                    <div className="placeholder muted">{running ? 'Running…' : ''}</div>
                  )}
                </section>
              </>
            ) : (
              <div className="placeholder muted">No rules.</div>
            )}
          </main>
        </div>
      )}
    </div>
  );
}

// The stats view: the active report's summary, its time range and rule list
// beside, the selected rule's settings, table and pie chart.
import { useEffect, useMemo, useState } from 'react';
import type { RuleDecl } from '../engine/types';
import { exportResult, reportStem, type ExportFormat } from '../lib/download';
import { cliGlobalOptions, cliSpec } from '../lib/options';
import { pagedRowsLimit } from '../lib/paged';
import { pagedEngineOf } from '../lib/paged_queries';
import { AdviceTab } from '../components/AdviceTab';
import { ReportSummary } from '../components/ReportSummary';
import { RuleHeader } from '../components/RuleHeader';
import { ResultView } from '../components/ResultView';
import { RuleList } from '../components/RuleList';
import type { GlobalSettings } from '../components/SettingsPanel';
import { TimeFilter } from '../components/TimeFilter';
import { useEngine } from '../state/engine';
import { message, useErrors } from '../state/errors';
import { usePrefs, useSelectedRule } from '../state/prefs';
import { useReports, type OpenReport } from '../state/reports';
import { useRuleConfig } from '../state/ruleConfig';
import { useAdvice } from '../state/useAdvice';
import { useTableFocus } from '../state/useTableFocus';
import { ADVICE_RULES } from '../lib/advice';
import { useRuleOptions } from '../state/useRuleOptions';
import { useRun } from '../state/useRun';
import { timeZeroOf } from '../lib/time_zero';
import { shownTimesOf } from '../lib/result';
import { useView } from '../state/view';
import { useLang } from '../i18n/lang';
import { EngineText } from '../components/EngineText';

/** Ids a report lists for an IdList option: its devices, its processes. */

/** The global options' settings for the panel, from the saved rule configuration. */
export function useGlobalSettings(rules: RuleDecl[]): GlobalSettings {
  const config = useRuleConfig();
  return {
    entries: config.entries,
    check: config.check,
    save: (name, entries) => config.save(rules.flatMap((r) => r.globalOptions).find((g) => g.name === name), name, entries),
  };
}

/** The command line's time range options of a report ("" for none). */
export function cliTimeFilter(report: OpenReport): string {
  const tf = report.timeFilter;
  if (tf?.filterHgtx) return ` --filter-hgtx ${tf.filterHgtx}`;
  if (tf?.filterTime) return ` --filter-time ${tf.filterTime}`;
  return '';
}

export function StatsView({
  report,
  busy,
  onBusy,
}: {
  report: OpenReport;
  /** The page is busy: the time range waits. */
  busy: boolean;
  /** This view is busy (a run on its way, an export, a sort). */
  onBusy: (busy: boolean) => void;
}) {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const prefs = usePrefs();
  const { showInTimeline, showInTable, tableFocus } = useView();
  const ruleConfig = useRuleConfig();
  const { applyTimeFilter } = useReports();
  const { t } = useLang();
  // The stats view runs the rules of one report; compare rules need two.
  const rules = useMemo(() => report.rules.filter((r) => !r.compare), [report.rules]);
  const [selected, setSelected] = useSelectedRule('stats');
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [sorting, setSorting] = useState(false);
  // The advice tab replaces the rule's table until a rule is chosen.
  const [adviceOpen, setAdviceOpen] = useState(false);
  const advice = useAdvice(report, adviceOpen);

  // A report keeps the rule shown before when it has it.
  useEffect(() => {
    setSelected((prev) =>
      prev && rules.some((r) => r.name === prev) ? prev : (rules.find((r) => r.available)?.name ?? rules[0]?.name ?? null),
    );
  }, [rules]);

  // "Show in table" / "Open rows": the rule asked for, its table in place of the advice.
  useEffect(() => {
    if (!tableFocus || tableFocus.report !== report.id) return;
    setAdviceOpen(false);
    setSelected(tableFocus.rule);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tableFocus]);

  const rule = rules.find((r) => r.name === selected) ?? null;
  const values = rule ? prefs.settingsOf(rule) : {};
  const built = useRuleOptions(rule, values);
  const tf = report.timeFilter;
  // Only the global options the rule reads: other rules keep their result.
  const globalKey = rule ? JSON.stringify(rule.globalOptions.map((g) => ruleConfig.config[g.name] ?? null)) : '';
  const key = rule
    ? `${report.id}|${tf ? `${tf.filterTime}|${tf.filterHgtx}` : ''}|${rule.name}|${JSON.stringify(built?.options)}|${globalKey}`
    : '';
  const canRun = !!rule && !!built && !built.pending && Object.keys(built.errors).length === 0;
  const { run, running: runPending } = useRun(
    key,
    canRun,
    rule?.name ?? '',
    () => client.run(report.id, rule!.name, built!.options, pagedRowsLimit()),
    timeZeroOf(report.summary.captureStart),
  );
  // A regex check on its way is part of the run: the old result is stale.
  const running = runPending || !!built?.pending;
  const globalSettings = useGlobalSettings(rules);
  // A performance mark for bench/browser-run.mjs: a rule's table shown.
  useEffect(() => {
    // A paged result marks its table when its first rows are shown (ResultView).
    if (run?.result && !run.result.paged && typeof performance !== 'undefined' && performance.mark) {
      performance.mark('asys:table', { detail: { rule: run.rule, rows: run.result.rowCount } });
    }
  }, [run]);
  useEffect(() => onBusy(running || exporting !== null || sorting), [running, exporting, sorting, onBusy]);
  useEffect(() => () => onBusy(false), [onBusy]);

  const exportAs = async (format: ExportFormat) => {
    if (!rule || !shown?.result || shown.resultId === undefined) return;
    setExporting(format);
    try {
      await exportResult(client, shown.resultId, rule.name, `${reportStem(report.summary.fileName)}_${rule.name}`, format);
    } catch (e) {
      pushError(message(e));
    } finally {
      setExporting(null);
    }
  };

  const status = !rule ? 'none' : running ? 'running' : run?.error ? 'error' : run?.result ? 'ready' : 'none';
  const shown = run && rule && run.rule === rule.name ? run : null;
  const resultId = shown?.resultId;
  const focusRows = useTableFocus(report.id, shown?.rule ?? null, running ? undefined : resultId, shown?.result?.rowCount ?? 0);
  const pagedEngine = useMemo(
    () => (resultId !== undefined && shown?.result?.paged ? pagedEngineOf(client, resultId, shownTimesOf(shown.result)) : undefined),
    [client, resultId, shown?.result],
  );

  return (
    <div className="workspace">
      <aside className="sidebar">
        <ReportSummary summary={report.summary} />
        <TimeFilter
          key={report.id}
          applied={report.timeFilter}
          captureStart={report.summary.captureStart}
          onApply={(ft, fh) => applyTimeFilter(report.id, ft, fh)}
          busy={busy}
        />
        <button
          type="button"
          className={`advice-open${adviceOpen ? ' active' : ''}`}
          data-testid="advice-tab"
          aria-pressed={adviceOpen}
          title={t.advice.tabTitle}
          onClick={() => setAdviceOpen(true)}
        >
          {t.advice.tab}
        </button>
        <RuleList
          rules={rules}
          selected={adviceOpen ? null : selected}
          onSelect={(name) => {
            setAdviceOpen(false);
            setSelected(name);
          }}
        />
      </aside>
      <main className="content">
        {adviceOpen ? (
          <AdviceTab
            advice={advice}
            onOpenRows={(f) => {
              // The table the finding was read from: the advice's options for the rule, its row selected.
              const decl = rules.find((r) => r.name === f.rule);
              if (decl) {
                prefs.resetSettings(decl);
                for (const [name, value] of Object.entries(ADVICE_RULES[f.rule])) prefs.setSetting(decl, name, value);
              }
              showInTable({ report: report.id, rule: f.rule, rows: [f.row] });
            }}
            onShowOnTimeline={(f) =>
              f.span && showInTimeline({ report: report.id, start: f.span.start, end: f.span.end, zoom: true, label: f.span.name })
            }
          />
        ) : rule ? (
          <>
            <RuleHeader
              rule={rule}
              cli={`asys ${rule.command}${cliTimeFilter(report)} -r ${cliSpec(rule, built?.options ?? {})}${cliGlobalOptions(rule, ruleConfig.config)}`}
              running={running}
              values={values}
              errors={built?.errors ?? {}}
              summary={report.summary}
              global={globalSettings}
            />
            <section
              className={`result${running ? ' stale' : ''}`}
              data-testid="result"
              data-rule={rule.name}
              data-status={status}
            >
              {shown?.error && !running ? (
                <div className="rule-error" role="alert" data-testid="rule-error">
                  <strong>{rule.available ? t.ruleFailed : t.reportLacksData}</strong>
                  <div>
                    <EngineText text={shown.error} />
                  </div>
                </div>
              ) : shown?.result ? (
                <ResultView
                  key={shown.id}
                  rule={rule}
                  result={shown.result}
                  pieKey={prefs.pieKeys[rule.name] ?? null}
                  onPieKey={(k) => prefs.setPieKey(rule.name, k)}
                  topN={prefs.topN}
                  onTopN={prefs.setTopN}
                  onExport={exportAs}
                  fileStem={reportStem(report.summary.fileName)}
                  exporting={exporting}
                  chartOpen={prefs.chartOpen}
                  onToggleChart={prefs.toggleChart}
                  sortOrder={
                    resultId === undefined ? undefined : (column, descending) => client.sortOrder(resultId, column, descending)
                  }
                  onPendingChange={setSorting}
                  paged={pagedEngine}
                  focusRows={focusRows}
                  onShowEventInTimeline={(event, label) =>
                    showInTimeline({ report: report.id, start: 0n, end: 0n, zoom: true, label, event })
                  }
                  onMarkInTimeline={(name) =>
                    showInTimeline({ report: report.id, start: 0n, end: 0n, zoom: false, label: name, name })
                  }
                  onShowInTimeline={(span, row, zoom) =>
                    showInTimeline({ report: report.id, start: span.start[row], end: span.end[row], zoom, label: span.name })
                  }
                />
              ) : (
                <div className="placeholder muted">{running ? t.running : ''}</div>
              )}
            </section>
          </>
        ) : (
          <div className="placeholder muted">{t.noRules}</div>
        )}
      </main>
    </div>
  );
}

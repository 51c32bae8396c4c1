// The compare view (报告对比): the active report is the base, "Compare with"
// picks the target among the open reports; the information table, the
// compare rules with their generated settings, the hotspot bar chart and the
// compare table (sorted in the engine, exported as the CLI writes it). A
// row's right-click marks what it names (a kernel, a range) on either
// report's timeline, as a summary row's "Mark in timeline" does.
import { useCallback, useEffect, useMemo, useState, type ComponentProps, type ReactNode } from 'react';
import type { RuleDecl } from '../engine/types';
import { hotspots, isPairColumn, sideNames } from '../lib/compare';
import { formatInt } from '../lib/format';
import { cliGlobalOptions, cliSpec } from '../lib/options';
import { identityOrder, type DecodedResult } from '../lib/result';
import { nextSort, type SortState } from '../lib/sort';
import { CompareInfo } from '../components/CompareInfo';
import { HotspotChart } from '../components/HotspotChart';
import { RuleHeader } from '../components/RuleHeader';
import { ResultTable } from '../components/ResultTable';
import { ExportButtons } from '../components/ExportButtons';
import { TableSearchBox } from '../components/TableSearch';
import { RuleList } from '../components/RuleList';
import { ContextMenu, type MenuItem } from '../components/ContextMenu';
import { useEngine } from '../state/engine';
import { message, useErrors } from '../state/errors';
import { usePrefs, useSelectedRule } from '../state/prefs';
import { useReports, type OpenReport } from '../state/reports';
import { useRuleConfig } from '../state/ruleConfig';
import { useRuleOptions } from '../state/useRuleOptions';
import { useRun } from '../state/useRun';
import { useTableSearch } from '../state/useTableSearch';
import { useView } from '../state/view';
import { exportResult, reportStem, type ExportFormat } from '../lib/download';
import { cliTimeFilter, useGlobalSettings } from './StatsView';
import { useLang } from '../i18n/lang';
import { EngineText } from '../components/EngineText';

/** Which report a compare column speaks for: "base / target" for pairs, one alias for a side's own column. */
function headerNoteOf(result: DecodedResult, col: number, declared: RuleDecl['columns'], names: [string, string]) {
  if (isPairColumn(result, col, declared)) return `${names[0]} / ${names[1]}`;
  const name = result.columns[col].name;
  return name.startsWith('Base ') ? names[0] : name.startsWith('Target ') ? names[1] : undefined;
}

/** The compare table with its toolbar: row count, search box, `actions` (export). A new result starts with a clear search. */
function SearchedTable({ actions, ...table }: ComponentProps<typeof ResultTable> & { actions: ReactNode }) {
  const { t } = useLang();
  const search = useTableSearch(table.result, table.order);
  const n = table.result.rowCount;
  return (
    <>
      <div className="toolbar">
        <span className="row-count" data-testid="row-count">
          {t.rowsShown(formatInt(search.order.length), formatInt(n), search.order.length !== n, n === 1)}
        </span>
        <TableSearchBox search={search} />
        <span className="spacer" />
        {actions}
      </div>
      <ResultTable
        {...table}
        order={search.order}
        matches={search.mode === 'search' ? search.mask : null}
        currentMatch={search.currentMatch}
      />
    </>
  );
}

/** Both reports' availability: a compare rule needs its data in each. */
function availability(rule: RuleDecl, target: OpenReport | null): RuleDecl {
  const there = target?.rules.find((r) => r.name === rule.name);
  if (!there || there.available || !rule.available) return rule;
  return { ...rule, available: false, missing: `The target: ${there.missing}` };
}

export function CompareView({ busy, onBusy }: { busy: boolean; onBusy: (busy: boolean) => void }) {
  const { reports, active: base, target, setTarget, swap, setAlias } = useReports();
  const others = reports.filter((r) => r.id !== base?.id);
  // Without a target yet, the first other report.
  useEffect(() => {
    if (base && !target && others.length > 0) setTarget(others[0].id);
  }, [base, target, others, setTarget]);
  if (!base) return null;
  return (
    <div className="workspace compare">
      <CompareBody
        base={base}
        target={target}
        others={others}
        onTarget={setTarget}
        onSwap={swap}
        onRename={setAlias}
        busy={busy}
        onBusy={onBusy}
      />
    </div>
  );
}

function CompareBody({
  base,
  target,
  others,
  onTarget,
  onSwap,
  onRename,
  onBusy,
}: {
  base: OpenReport;
  target: OpenReport | null;
  others: OpenReport[];
  onTarget: (id: number | null) => void;
  onSwap: () => void;
  onRename: (id: number, alias: string) => void;
  busy: boolean;
  onBusy: (busy: boolean) => void;
}) {
  const { client } = useEngine();
  const { pushError } = useErrors();
  const prefs = usePrefs();
  const ruleConfig = useRuleConfig();
  const rules = useMemo(() => base.rules.filter((r) => r.compare).map((r) => availability(r, target)), [base, target]);
  const { t } = useLang();
  const [selected, setSelected] = useSelectedRule('compare');
  useEffect(() => {
    setSelected((prev) =>
      prev && rules.some((r) => r.name === prev) ? prev : (rules.find((r) => r.available)?.name ?? rules[0]?.name ?? null),
    );
  }, [rules]);
  const rule = rules.find((r) => r.name === selected) ?? null;
  const values = rule ? prefs.settingsOf(rule) : {};
  const built = useRuleOptions(rule, values);
  const range = (r: OpenReport) => (r.timeFilter ? `${r.timeFilter.filterTime}|${r.timeFilter.filterHgtx}` : '');
  const globalKey = rule ? JSON.stringify(rule.globalOptions.map((g) => ruleConfig.config[g.name] ?? null)) : '';
  const key =
    rule && target
      ? `${base.id}|${range(base)}|${target.id}|${range(target)}|${rule.name}|${JSON.stringify(built?.options)}|${globalKey}`
      : '';
  const canRun = !!rule && !!target && !!built && !built.pending && Object.keys(built.errors).length === 0;
  const { run, running: runPending } = useRun(key, canRun, rule?.name ?? '', () =>
    client.runCompare(base.id, target!.id, rule!.name, built!.options),
  );
  // A regex check on its way is part of the run: the old result is stale.
  const running = runPending || !!built?.pending;
  const globalSettings = useGlobalSettings(rules);
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const [sort, setSort] = useState<{ state: SortState; order: Uint32Array } | null>(null);
  const [sorting, setSorting] = useState(false);
  const [selectedRow, setSelectedRow] = useState<number | null>(null);
  const [capacity, setCapacity] = useState(12);
  const onCapacity = useCallback((n: number) => setCapacity(n), []);
  useEffect(() => onBusy(running || exporting !== null || sorting), [running, exporting, sorting, onBusy]);
  useEffect(() => () => onBusy(false), [onBusy]);

  const shown = run && rule && run.rule === rule.name ? run : null;
  const result = shown?.result ?? null;
  // A new result starts unsorted and with nothing selected.
  useEffect(() => {
    setSort(null);
    setSelectedRow(null);
  }, [result]);
  const order = useMemo(() => sort?.order ?? identityOrder(result?.rowCount ?? 0), [sort, result]);
  const selectedRows = useMemo(() => new Set(selectedRow === null ? [] : [selectedRow]), [selectedRow]);

  const requestSort = async (col: number) => {
    if (!result || shown?.resultId === undefined) return;
    const next = nextSort(sort?.state ?? null, col, result.columns[col].numeric);
    if (!next) {
      setSort(null);
      return;
    }
    setSorting(true);
    try {
      setSort({ state: next, order: await client.sortOrder(shown.resultId, col, next.dir === 'desc') });
    } catch (e) {
      pushError(message(e));
    } finally {
      setSorting(false);
    }
  };

  const exportAs = async (format: ExportFormat) => {
    if (!rule || !target || shown?.resultId === undefined) return;
    setExporting(format);
    try {
      await exportResult(client, shown.resultId, rule.name, `${reportStem(base.summary.fileName)}_vs_${reportStem(target.summary.fileName)}_${rule.name}`, format);
    } catch (e) {
      pushError(message(e));
    } finally {
      setExporting(null);
    }
  };

  const names: [string, string] = [base.alias, target?.alias ?? ''];
  const spots = useMemo(
    () => (result && rule ? hotspots(result, rule.compareShare, capacity) : []),
    [result, rule, capacity],
  );
  const status = !rule || !target ? 'none' : running ? 'running' : shown?.error ? 'error' : result ? 'ready' : 'none';

  // A row's right-click: what it names, marked on the base's or the target's
  // timeline (the timeline shows the active report: the target's is shown
  // by swapping the pair, as the Swap button does).
  const { showInTimeline } = useView();
  const [menu, setMenu] = useState<{ x: number; y: number; items: MenuItem[] } | null>(null);
  const rowMenu = (row: number, x: number, y: number) => {
    if (!result || !target) return;
    const named = sideNames(result, row);
    const mark = (report: OpenReport, name: string) => showInTimeline({ report: report.id, start: 0n, end: 0n, zoom: false, label: name, name });
    const items: MenuItem[] = [];
    if (named.base !== null) {
      const name = named.base;
      items.push({ label: t.markInReportTimeline(name, base.alias), onSelect: () => mark(base, name) });
    }
    if (named.target !== null) {
      const name = named.target;
      items.push({
        label: t.markInReportTimeline(name, target.alias),
        onSelect: () => {
          onSwap();
          mark(target, name);
        },
      });
    }
    if (items.length > 0) setMenu({ x, y, items });
  };

  return (
    <>
      <aside className="sidebar">
        <div className="compare-with">
          <label>
            <span>{t.compareWith}</span>
            <select
              className="input"
              value={target?.id ?? ''}
              onChange={(e) => onTarget(e.target.value === '' ? null : Number(e.target.value))}
              data-testid="compare-with"
            >
              {others.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.alias} ({r.summary.fileName})
                </option>
              ))}
            </select>
          </label>
        </div>
        <RuleList rules={rules} selected={selected} onSelect={setSelected} />
      </aside>
      <main className="content">
        {target && <CompareInfo base={base} target={target} onSwap={onSwap} onRename={onRename} />}
        {rule && target ? (
          <>
            <RuleHeader
              rule={rule}
              cli={`asys stats${cliTimeFilter(base)} -r ${cliSpec(rule, built?.options ?? {})}${cliGlobalOptions(rule, ruleConfig.config)} ${base.summary.fileName} ${target.summary.fileName}`}
              running={running}
              values={values}
              errors={built?.errors ?? {}}
              summary={base.summary}
              global={globalSettings}
            />
            <section
              className={`result compare-result${running ? ' stale' : ''}`}
              data-testid="result"
              data-rule={rule.name}
              data-status={status}
            >
              {shown?.error && !running ? (
                <div className="rule-error" role="alert" data-testid="rule-error">
                  <strong>{rule.available ? t.ruleFailed : t.aReportLacksData}</strong>
                  <div>
                    <EngineText text={shown.error} />
                  </div>
                </div>
              ) : result ? (
                <>
                  {result.warnings.length > 0 && (
                    <ul className="result-warnings" data-testid="result-warnings" role="status">
                      {result.warnings.map((w, i) => (
                        <li key={i}>
                          <EngineText text={w} />
                        </li>
                      ))}
                    </ul>
                  )}
                  {rule.compareShare && (
                    <HotspotChart
                      title={rule.compareShare}
                      names={names}
                      rows={spots}
                      onSelect={setSelectedRow}
                      onCapacity={onCapacity}
                    />
                  )}
                  <SearchedTable
                    key={shown?.id}
                    result={result}
                    order={order}
                    sort={sort?.state ?? null}
                    onSort={(col) => void requestSort(col)}
                    selectedRows={selectedRows}
                    scrollToRow={selectedRow}
                    onRowClick={(row) => setSelectedRow((prev) => (prev === row ? null : row))}
                    onRowContextMenu={rowMenu}
                    headerNote={(col) => headerNoteOf(result, col, rule.columns, names)}
                    actions={<ExportButtons onExport={exportAs} exporting={exporting} />}
                  />
                  {menu && <ContextMenu x={menu.x} y={menu.y} items={menu.items} onClose={() => setMenu(null)} />}
                </>
              ) : (
                <div className="placeholder muted">{running ? t.running : ''}</div>
              )}
            </section>
          </>
        ) : (
          <div className="placeholder muted">{target ? t.noCompareRules : t.compareNeedsTwo}</div>
        )}
      </main>
    </>
  );
}

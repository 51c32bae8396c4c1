// The open reports: several at once, each with the engine's id, its summary,
// its rules (with their availability in it), its own statistics time range
// and an alias (the compare view's legend and headers). One is active (the
// stats view shows it, the compare view takes it as the base); a second may
// be the compare target.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { OpenedReport, Progress } from '../engine/client';
import type { ReportSummary, RuleDecl, TimeWindow } from '../engine/types';
import { assetUrl, useEngine } from './engine';
import { message, useErrors } from './errors';
import { useRuleConfig } from './ruleConfig';

/** The demo reports (public/demo/demo-<name>.asysrep). */
export const DEMOS = ['base', 'slow'] as const;
export type DemoName = (typeof DEMOS)[number];

/** A report being opened: the progress bar's label and bytes. */
export interface LoadingState {
  label: string;
  loaded: number;
  total: number;
}

/** A report's statistics time range as applied (--filter-time / --filter-hgtx). */
export interface AppliedTimeFilter {
  filterTime: string;
  filterHgtx: string;
  /** The engine's resolved window, absolute ns (null sides are open). */
  window: TimeWindow | null;
}

export interface OpenReport {
  /** The engine's id. */
  id: number;
  summary: ReportSummary;
  rules: RuleDecl[];
  timeFilter: AppliedTimeFilter | null;
  alias: string;
}

interface ReportsState {
  reports: OpenReport[];
  active: OpenReport | null;
  /** The compare view's target: another open report, or none. */
  target: OpenReport | null;
  loading: LoadingState | null;
  openFiles: (files: File[]) => Promise<void>;
  openDemo: (name: DemoName) => Promise<void>;
  /** Both demo reports, base active and slow its compare target. */
  openDemoPair: () => Promise<void>;
  close: (id: number) => Promise<void>;
  select: (id: number) => void;
  setTarget: (id: number | null) => void;
  /** The target becomes the base and the other way round. */
  swap: () => void;
  setAlias: (id: number, alias: string) => void;
  /** Sets a report's statistics range in the engine; rejects with its line. */
  applyTimeFilter: (id: number, filterTime: string, filterHgtx: string) => Promise<void>;
}

const ReportsContext = createContext<ReportsState | null>(null);

/** "demo-base.asysrep" -> "demo-base": the alias a report starts with. */
export function defaultAlias(fileName: string): string {
  return fileName.replace(/\.(asysrep|sqlite3?|json\.gz|json|gz)$/i, '') || fileName || 'report';
}

export function ReportsProvider({ children }: { children: ReactNode }) {
  const { client } = useEngine();
  const { pushError, clear } = useErrors();
  const ruleConfig = useRuleConfig();
  const [reports, setReports] = useState<OpenReport[]>([]);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [targetId, setTargetId] = useState<number | null>(null);
  const [loading, setLoading] = useState<LoadingState | null>(null);
  const reportsRef = useRef(reports);
  reportsRef.current = reports;
  const activeRef = useRef(activeId);
  activeRef.current = activeId;
  const targetRef = useRef(targetId);
  targetRef.current = targetId;

  const update = (id: number, change: (r: OpenReport) => OpenReport) =>
    setReports((rs) => rs.map((r) => (r.id === id ? change(r) : r)));

  // Opens one report; answers it (or null after showing the error).
  const openWith = useCallback(
    async (label: string, open: (onProgress: (p: Progress) => void) => Promise<OpenedReport>) => {
      setLoading({ label, loaded: 0, total: 0 });
      try {
        const opened = await open((p) => setLoading({ label, ...p }));
        // A fresh worker (after an engine failure) starts without the saved global options.
        await ruleConfig.resend();
        setLoading({ label: 'Reading rules…', loaded: 0, total: 0 });
        const rules = await client.listRules(opened.report);
        const report: OpenReport = {
          id: opened.report,
          summary: opened.summary,
          rules,
          timeFilter: null,
          alias: defaultAlias(opened.summary.fileName),
        };
        setReports((rs) => [...rs, report]);
        clear();
        return report;
      } catch (e) {
        pushError(message(e));
        return null;
      } finally {
        setLoading(null);
      }
    },
    [client, pushError, clear, ruleConfig],
  );

  const becomeActive = (r: OpenReport | null) => {
    if (!r) return;
    // The report shown before is the natural one to compare with.
    const prev = activeRef.current;
    if (prev !== null && prev !== r.id && targetRef.current === null) setTargetId(prev);
    setActiveId(r.id);
  };

  const openFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      if (typeof performance !== 'undefined' && performance.mark) {
        performance.mark('asys:open', { detail: { files: files.map((f) => f.name) } });
      }
      const more = files.length > 1 ? ` and ${files.length - 1} more` : '';
      becomeActive(await openWith(`Opening ${files[0].name}${more}…`, (p) => client.open(files, p)));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [client, openWith],
  );

  const openDemoReport = useCallback(
    (name: DemoName) => {
      const fileName = `demo-${name}.asysrep`;
      return openWith(`Loading ${fileName}…`, (p) => client.openDemo(assetUrl(`demo/${fileName}`), fileName, p));
    },
    [client, openWith],
  );

  const openDemo = useCallback(
    async (name: DemoName) => becomeActive(await openDemoReport(name)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [openDemoReport],
  );

  // The demo pair, reusing a demo report already open.
  const openDemoPair = useCallback(async () => {
    const opened = (name: DemoName) =>
      reportsRef.current.find((r) => r.summary.fileName === `demo-${name}.asysrep`) ?? openDemoReport(name);
    const base = await opened('base');
    const slow = await opened('slow');
    if (base) setActiveId(base.id);
    if (slow) setTargetId(slow.id);
  }, [openDemoReport]);

  const close = useCallback(
    async (id: number) => {
      try {
        await client.close(id);
      } catch (e) {
        pushError(message(e));
      }
      const rest = reportsRef.current.filter((r) => r.id !== id);
      setReports(rest);
      setActiveId((a) => (a === id ? (rest.at(-1)?.id ?? null) : a));
      setTargetId((t) => (t === id ? null : t));
    },
    [client, pushError],
  );

  const select = useCallback((id: number) => {
    setActiveId(id);
    setTargetId((t) => (t === id ? null : t));
  }, []);

  const swap = useCallback(() => {
    const a = activeRef.current, t = targetRef.current;
    if (t === null) return;
    setActiveId(t);
    setTargetId(a);
  }, []);

  const setAlias = useCallback((id: number, alias: string) => update(id, (r) => ({ ...r, alias })), []);

  const applyTimeFilter = useCallback(
    async (id: number, filterTime: string, filterHgtx: string) => {
      const window = await client.setTimeFilter(id, filterTime, filterHgtx);
      update(id, (r) => ({ ...r, timeFilter: filterTime || filterHgtx ? { filterTime, filterHgtx, window } : null }));
    },
    [client],
  );

  const active = reports.find((r) => r.id === activeId) ?? null;
  const target = reports.find((r) => r.id === targetId && r.id !== activeId) ?? null;
  const value = useMemo(
    () => ({
      reports,
      active,
      target,
      loading,
      openFiles,
      openDemo,
      openDemoPair,
      close,
      select,
      setTarget: setTargetId,
      swap,
      setAlias,
      applyTimeFilter,
    }),
    [reports, active, target, loading, openFiles, openDemo, openDemoPair, close, select, swap, setAlias, applyTimeFilter],
  );
  return <ReportsContext.Provider value={value}>{children}</ReportsContext.Provider>;
}

export function useReports(): ReportsState {
  const v = useContext(ReportsContext);
  if (!v) throw new Error('useReports outside ReportsProvider');
  return v;
}

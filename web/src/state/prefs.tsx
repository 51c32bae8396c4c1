// View preferences shared by the stats and compare views: the rule each
// view shows, each rule's settings in each open report (lib/report_settings.ts:
// a report's settings are its own, restored when it is active again), the
// pie's key column per rule, how many slices, whether the chart is open.
// Shared, not the views' own, so that a permalink can set them
// (state/permalink.tsx).
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode, type SetStateAction } from 'react';
import type { RuleDecl } from '../engine/types';
import type { SettingValues } from '../lib/options';
import type { RuleView } from '../lib/permalink';
import { settingsIn, settingsKey, withoutReport, withReset, withSetting, type ReportSettings } from '../lib/report_settings';
import { useReports } from './reports';

interface PrefsState {
  /** The rule each view shows (null: the view picks its first). */
  selectedRule: Record<RuleView, string | null>;
  selectRule: (view: RuleView, rule: SetStateAction<string | null>) => void;
  /** The rule's settings in the active report (a compare rule's: the compare view's, kept across a swap). */
  settingsOf: (rule: RuleDecl) => SettingValues;
  /** Sets one in the active report, or in `report` (a permalink's base, before it is active). */
  setSetting: (rule: RuleDecl, name: string, value: string, report?: number) => void;
  resetSettings: (rule: RuleDecl) => void;
  pieKeys: Record<string, string>;
  setPieKey: (rule: string, key: string) => void;
  topN: number;
  setTopN: (n: number) => void;
  chartOpen: boolean;
  toggleChart: () => void;
}

const PrefsContext = createContext<PrefsState | null>(null);

export function PrefsProvider({ children }: { children: ReactNode }) {
  const [selectedRule, setSelectedRule] = useState<Record<RuleView, string | null>>({ stats: null, compare: null });
  const selectRule = useCallback((view: RuleView, rule: SetStateAction<string | null>) => {
    setSelectedRule((s) => ({ ...s, [view]: typeof rule === 'function' ? rule(s[view]) : rule }));
  }, []);
  const { active, reports } = useReports();
  const activeId = active?.id ?? null;
  const [settings, setSettings] = useState<ReportSettings>({});
  // A closed report's settings go with it (an id the engine gives again starts afresh).
  useEffect(() => {
    setSettings((s) => {
      let out = s;
      for (const key of Object.keys(s)) {
        if (!reports.some((r) => r.id === Number(key))) out = withoutReport(out, Number(key));
      }
      return out;
    });
  }, [reports]);
  const [pieKeys, setPieKeys] = useState<Record<string, string>>({});
  const [topN, setTopN] = useState(10);
  const [chartOpen, setChartOpen] = useState(true);
  const settingsOf = useCallback((rule: RuleDecl) => settingsIn(settings, settingsKey(rule, activeId), rule), [settings, activeId]);
  const setSetting = useCallback(
    (rule: RuleDecl, name: string, value: string, report?: number) => {
      const id = settingsKey(rule, report ?? activeId);
      if (id !== null) setSettings((s) => withSetting(s, id, rule, name, value));
    },
    [activeId],
  );
  const resetSettings = useCallback(
    (rule: RuleDecl) => {
      const id = settingsKey(rule, activeId);
      if (id !== null) setSettings((s) => withReset(s, id, rule));
    },
    [activeId],
  );
  const setPieKey = useCallback((rule: string, key: string) => setPieKeys((p) => ({ ...p, [rule]: key })), []);
  const toggleChart = useCallback(() => setChartOpen((o) => !o), []);
  const value = useMemo(
    () => ({
      selectedRule,
      selectRule,
      settingsOf,
      setSetting,
      resetSettings,
      pieKeys,
      setPieKey,
      topN,
      setTopN,
      chartOpen,
      toggleChart,
    }),
    [selectedRule, selectRule, settingsOf, setSetting, resetSettings, pieKeys, setPieKey, topN, chartOpen, toggleChart],
  );
  return <PrefsContext.Provider value={value}>{children}</PrefsContext.Provider>;
}

export function usePrefs(): PrefsState {
  const v = useContext(PrefsContext);
  if (!v) throw new Error('usePrefs outside PrefsProvider');
  return v;
}

/** The rule a view shows, as a [value, setter] pair like useState's. */
export function useSelectedRule(view: RuleView): [string | null, (rule: SetStateAction<string | null>) => void] {
  const { selectedRule, selectRule } = usePrefs();
  const set = useCallback((rule: SetStateAction<string | null>) => selectRule(view, rule), [selectRule, view]);
  return [selectedRule[view], set];
}

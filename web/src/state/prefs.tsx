// View preferences shared by the stats and compare views: the rule each
// view shows, each rule's settings, the pie's key column per rule, how many
// slices, whether the chart is open. Shared, not the views' own, so that a
// permalink can set them (state/permalink.tsx).
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode, type SetStateAction } from 'react';
import type { RuleDecl } from '../engine/types';
import { defaultSettings, type SettingValues } from '../lib/options';
import type { RuleView } from '../lib/permalink';

interface PrefsState {
  /** The rule each view shows (null: the view picks its first). */
  selectedRule: Record<RuleView, string | null>;
  selectRule: (view: RuleView, rule: SetStateAction<string | null>) => void;
  settingsOf: (rule: RuleDecl) => SettingValues;
  setSetting: (rule: RuleDecl, name: string, value: string) => void;
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
  const [settings, setSettings] = useState<Record<string, SettingValues>>({});
  const [pieKeys, setPieKeys] = useState<Record<string, string>>({});
  const [topN, setTopN] = useState(10);
  const [chartOpen, setChartOpen] = useState(true);
  const settingsOf = useCallback((rule: RuleDecl) => settings[rule.name] ?? defaultSettings(rule), [settings]);
  const setSetting = useCallback((rule: RuleDecl, name: string, value: string) => {
    setSettings((s) => ({ ...s, [rule.name]: { ...(s[rule.name] ?? defaultSettings(rule)), [name]: value } }));
  }, []);
  const resetSettings = useCallback((rule: RuleDecl) => setSettings((s) => ({ ...s, [rule.name]: defaultSettings(rule) })), []);
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

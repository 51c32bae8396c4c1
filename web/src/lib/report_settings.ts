// Each open report's own rule settings: per report (the engine's report id),
// per rule, the values its settings panel holds. A report that was never
// given a setting shows the rule's declared defaults; switching reports
// switches the whole set, and switching back restores it.
import type { RuleDecl } from '../engine/types';
import { defaultSettings, parseIdList, type SettingValues } from './options';

/**
 * The compare rules' key: they read two reports, and swapping the pair keeps
 * their settings, so they are the compare view's, not one report's.
 */
export const COMPARE_KEY = -1;

/** Report id (or COMPARE_KEY) -> rule name -> the settings as the panel holds them. */
export type ReportSettings = Record<number, Record<string, SettingValues>>;

/** The rule's settings in a report: its own, or the declared defaults. */
export function settingsIn(store: ReportSettings, report: number | null, rule: RuleDecl): SettingValues {
  if (report === null) return defaultSettings(rule);
  return store[report]?.[rule.name] ?? defaultSettings(rule);
}

/** The store with one setting of one rule in one report changed (the others untouched). */
export function withSetting(store: ReportSettings, report: number, rule: RuleDecl, name: string, value: string): ReportSettings {
  const mine = store[report] ?? {};
  return { ...store, [report]: { ...mine, [rule.name]: { ...settingsIn(store, report, rule), [name]: value } } };
}

/** The store with a rule's settings in a report back to the declared defaults. */
export function withReset(store: ReportSettings, report: number, rule: RuleDecl): ReportSettings {
  return { ...store, [report]: { ...(store[report] ?? {}), [rule.name]: defaultSettings(rule) } };
}

/** Where a rule's settings live: the report's own, or the compare view's for a compare rule. */
export function settingsKey(rule: RuleDecl, report: number | null): number | null {
  return rule.compare ? COMPARE_KEY : report;
}

/** The store without a closed report's settings. */
export function withoutReport(store: ReportSettings, report: number): ReportSettings {
  if (report === COMPARE_KEY || !(report in store)) return store;
  const out = { ...store };
  delete out[report];
  return out;
}

/**
 * The ids an IdList value names that the report does not have, ascending
 * ("2/0" on a report of device 0 only -> [2]). None when the report offers no
 * ids for the option (nothing to check against) or the value is not a list.
 */
export function missingIds(value: string, known: readonly number[]): number[] {
  if (known.length === 0) return [];
  const ids = parseIdList(value);
  if (!ids) return [];
  const have = new Set(known);
  return [...new Set(ids.filter((id) => !have.has(id)))].sort((a, b) => a - b);
}

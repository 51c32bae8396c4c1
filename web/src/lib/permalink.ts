// The permalink: the view state in the URL's fragment (never sent to a
// server, never report data), versioned so that an old link is recognised:
//   #v=1&view=compare&rule=ppu_kernel_summary_compare&o.matched-only=1
//    &report.0=demo-base.asysrep&alias.0=before&time.0=1000000/5000000
//    &report.1=demo-slow.asysrep&hgtx.1=iter%205&base=0&target=1&lang=zh
// and, while the timeline shows, its window and the row its Events view
// lists: &window=0:1000000/5000000&events=0:12
// Reports are named by file name; the link restores once the same files
// are opened again. Decoding never throws: what it cannot read is a problem
// line, and the rest is restored.
import type { OptionSpec } from '../engine/types';
import { defaultValueOf, type SettingValues } from './options';

export const LINK_VERSION = 1;

export type ViewName = 'stats' | 'compare' | 'timeline';
export const VIEWS: readonly ViewName[] = ['stats', 'compare', 'timeline'];
/** The views that show a rule: the timeline keeps the statistics view's. */
export type RuleView = 'stats' | 'compare';
export const ruleViewOf = (v: ViewName): RuleView => (v === 'compare' ? 'compare' : 'stats');
export type Lang = 'en' | 'zh';
export const LANGS: readonly Lang[] = ['en', 'zh'];

export interface LinkedReport {
  /** The report's file name as its summary names it. */
  file: string;
  /** The compare view's name for it ("" = the default alias). */
  alias: string;
  /** Its statistics range, as --filter-time / --filter-hgtx take them ("" = none). */
  filterTime: string;
  filterHgtx: string;
}

/** The timeline's visible window (written while the timeline shows). Absolute ns, decimal, exact past 2^53. */
export interface TimelineWindow {
  /** Index into `reports`. */
  report: number;
  start: string;
  end: string;
}

/** The timeline row whose events the Events view lists (written while the timeline shows it). */
export interface EventsPaneLink {
  /** Index into `reports`. */
  report: number;
  /** The timeline row (its track id: the same for the same file). */
  track: number;
}

export interface LinkState {
  view: ViewName;
  /** The rule the view shows (the statistics view's, for the timeline); null = the view's first. */
  rule: string | null;
  /** The rule's settings the link sets (panel values); the others keep their defaults. */
  settings: SettingValues;
  /** Global rule options the rule reads (option name -> entries). */
  global: Record<string, string[]>;
  reports: LinkedReport[];
  /** Indices into `reports`: the active report (the compare base) and the compare target. */
  base: number | null;
  target: number | null;
  lang: Lang | null;
  window: TimelineWindow | null;
  events: EventsPaneLink | null;
}

export interface DecodedLink {
  /** null: the URL has no link (or one too broken to read). */
  state: LinkState | null;
  /** What could not be restored, one line each. */
  problems: string[];
}

export function emptyLink(): LinkState {
  return { view: 'stats', rule: null, settings: {}, global: {}, reports: [], base: null, target: null, lang: null, window: null, events: null };
}

/** The settings that differ from the rule's defaults: all a link needs to carry. */
export function changedSettings(options: OptionSpec[], values: SettingValues): SettingValues {
  const out: SettingValues = {};
  for (const o of options) {
    const v = values[o.name];
    if (v !== undefined && v !== defaultValueOf(o)) out[o.name] = v;
  }
  return out;
}

/** The fragment, without '#'. Keys in a fixed order, so equal states give equal links. */
export function encodeLink(s: LinkState): string {
  const p = new URLSearchParams();
  p.set('v', String(LINK_VERSION));
  p.set('view', s.view);
  if (s.rule) p.set('rule', s.rule);
  for (const [k, v] of Object.entries(s.settings)) p.set(`o.${k}`, v);
  for (const [k, entries] of Object.entries(s.global)) {
    // An empty list is "none" (not the defaults): one empty entry says so.
    if (entries.length === 0) p.append(`g.${k}`, '');
    for (const e of entries) p.append(`g.${k}`, e);
  }
  s.reports.forEach((r, i) => {
    p.set(`report.${i}`, r.file);
    if (r.alias) p.set(`alias.${i}`, r.alias);
    if (r.filterTime) p.set(`time.${i}`, r.filterTime);
    if (r.filterHgtx) p.set(`hgtx.${i}`, r.filterHgtx);
  });
  if (s.base !== null) p.set('base', String(s.base));
  if (s.target !== null) p.set('target', String(s.target));
  if (s.lang) p.set('lang', s.lang);
  if (s.window) p.set('window', `${s.window.report}:${s.window.start}/${s.window.end}`);
  if (s.events) p.set('events', `${s.events.report}:${s.events.track}`);
  // Spaces as %20, not '+': the fragment reads the same in every tool.
  return p.toString().replace(/\+/g, '%20');
}

const INDEXED = /^(report|alias|time|hgtx)\.(\d+)$/;

/** Reads a fragment ("#v=1&..." or "v=1&..."); "" is no link. */
export function decodeLink(fragment: string): DecodedLink {
  const text = fragment.replace(/^#/, '');
  if (text === '') return { state: null, problems: [] };
  const p = new URLSearchParams(text);
  const version = p.get('v');
  if (version === null) return { state: null, problems: ['The link has no version (v=): nothing restored.'] };
  if (version !== String(LINK_VERSION)) {
    return {
      state: null,
      problems: [`The link is of version ${version}; this viewer reads version ${LINK_VERSION}: nothing restored.`],
    };
  }
  const s = emptyLink();
  const problems: string[] = [];
  const files = new Map<number, Partial<LinkedReport>>();
  const index = (name: string, text: string): number | null => {
    if (/^\d+$/.test(text)) return Number(text);
    problems.push(`${name}="${text}" is not a report number: ignored.`);
    return null;
  };
  for (const [key, value] of p) {
    const indexed = INDEXED.exec(key);
    if (indexed) {
      const i = Number(indexed[2]);
      const r = files.get(i) ?? {};
      const field = { report: 'file', alias: 'alias', time: 'filterTime', hgtx: 'filterHgtx' }[indexed[1]] as keyof LinkedReport;
      r[field] = value;
      files.set(i, r);
    } else if (key.startsWith('o.') && key.length > 2) {
      s.settings[key.slice(2)] = value;
    } else if (key.startsWith('g.') && key.length > 2) {
      const list = (s.global[key.slice(2)] ??= []);
      if (value !== '') list.push(value);
    } else if (key === 'v') {
      // read above
    } else if (key === 'view') {
      if ((VIEWS as readonly string[]).includes(value)) s.view = value as ViewName;
      else problems.push(`view "${value}" is not one of ${VIEWS.join(', ')}: the statistics view opens.`);
    } else if (key === 'rule') {
      s.rule = value || null;
    } else if (key === 'base') {
      s.base = index('base', value);
    } else if (key === 'target') {
      s.target = index('target', value);
    } else if (key === 'lang') {
      if ((LANGS as readonly string[]).includes(value)) s.lang = value as Lang;
      else problems.push(`language "${value}" is not one of ${LANGS.join(', ')}: ignored.`);
    } else if (key === 'window') {
      const m = /^(\d+):(-?\d+)\/(-?\d+)$/.exec(value);
      if (m) s.window = { report: Number(m[1]), start: m[2], end: m[3] };
      else problems.push(`window "${value}" is not REPORT:START/END in ns: ignored.`);
    } else if (key === 'events') {
      const m = /^(\d+):(\d+)$/.exec(value);
      if (m) s.events = { report: Number(m[1]), track: Number(m[2]) };
      else problems.push(`events "${value}" is not REPORT:ROW: ignored.`);
    } else {
      problems.push(`"${key}" is not part of a version ${LINK_VERSION} link: ignored.`);
    }
  }
  // Reports in index order; a gap or a report without its file is dropped,
  // and the indices pointing past it move with it.
  const order = [...files.keys()].sort((a, b) => a - b);
  const renumber = new Map<number, number>();
  for (const i of order) {
    const r = files.get(i)!;
    if (!r.file) {
      problems.push(`report ${i} has no file name (report.${i}=): its alias and range are ignored.`);
      continue;
    }
    renumber.set(i, s.reports.length);
    s.reports.push({ file: r.file, alias: r.alias ?? '', filterTime: r.filterTime ?? '', filterHgtx: r.filterHgtx ?? '' });
  }
  const resolve = (name: string, i: number | null): number | null => {
    if (i === null) return null;
    const to = renumber.get(i);
    if (to === undefined) problems.push(`${name}=${i} names no report of the link: ignored.`);
    return to ?? null;
  };
  s.base = resolve('base', s.base);
  s.target = resolve('target', s.target);
  if (s.window) {
    const to = resolve('window', s.window.report);
    s.window = to === null ? null : { ...s.window, report: to };
  }
  if (s.events) {
    const to = resolve('events', s.events.report);
    s.events = to === null ? null : { ...s.events, report: to };
  }
  if (s.target !== null && s.target === s.base) {
    problems.push('target is the base report: no compare target.');
    s.target = null;
  }
  return { state: s, problems };
}

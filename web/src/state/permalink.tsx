// The permalink's wiring (the format: lib/permalink.ts). On arrival the
// URL's fragment is read; each report it names is matched, by file name, as
// it opens (its alias and statistics range restored), and once the base and
// target are open the view, rule, settings and global options follow. While
// a link waits for its files the URL is left alone; afterwards every change
// of the view state is written back into it (replaceState: no history entry).
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLang } from '../i18n/lang';
import { changedSettings, decodeLink, encodeLink, ruleViewOf, type LinkState, type ViewName } from '../lib/permalink';
import { message } from './errors';
import { usePrefs } from './prefs';
import { defaultAlias, useReports, type OpenReport } from './reports';
import { useRuleConfig } from './ruleConfig';
import { useView } from './view';

export interface PermalinkStatus {
  /** The files the link still waits for. */
  waitingFor: string[];
  /** What could not be restored, one line each. */
  problems: string[];
  /** Drops the link (and its problems): the URL follows the view again. */
  forget: () => void;
}

/** `view`: the view shown (compare only when it is shown, not merely chosen). */
export function usePermalink(view: ViewName, setView: (v: ViewName) => void): PermalinkStatus {
  const reports = useReports();
  const prefs = usePrefs();
  const ruleConfig = useRuleConfig();
  const { lang, setLang } = useLang();
  const { shownWindow, showInTimeline, shownEvents, openEventsView } = useView();
  // Read before the first render, so that the URL is not rewritten before the link is kept.
  const [initial] = useState(() => decodeLink(location.hash));
  const [pending, setPending] = useState<LinkState | null>(initial.state);
  const [problems, setProblems] = useState<string[]>(initial.problems);
  // Link report index -> the open report's id it was matched with.
  const claimed = useRef(new Map<number, number>());
  const viewApplied = useRef(false);
  const addProblem = useCallback((p: string) => setProblems((ps) => [...ps, p]), []);

  const read = useCallback(() => {
    const { state, problems: found } = decodeLink(location.hash);
    claimed.current = new Map();
    viewApplied.current = false;
    setPending(state);
    setProblems(found);
    if (state?.lang) setLang(state.lang);
  }, [setLang]);
  useEffect(() => {
    if (initial.state?.lang) setLang(initial.state.lang);
    // A link pasted into the address bar of an open page changes only the fragment.
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, [read, initial, setLang]);

  // Restores what the open reports allow, as they open.
  useEffect(() => {
    const link = pending;
    if (!link) return;
    const open = reports.reports;
    link.reports.forEach((lr, i) => {
      if (claimed.current.has(i)) return;
      const taken = new Set(claimed.current.values());
      const r = open.find((o) => o.summary.fileName === lr.file && !taken.has(o.id));
      if (!r) return;
      claimed.current.set(i, r.id);
      if (lr.alias) reports.setAlias(r.id, lr.alias);
      if (lr.filterTime || lr.filterHgtx) {
        reports
          .applyTimeFilter(r.id, lr.filterTime, lr.filterHgtx)
          .catch((e) => addProblem(`${lr.file}: the statistics range: ${message(e)}`));
      }
    });
    const idOf = (i: number | null) => (i === null ? null : claimed.current.get(i));
    const baseId = idOf(link.base);
    const targetId = idOf(link.target);
    const windowId = link.window ? idOf(link.window.report) : null;
    const eventsId = link.events ? idOf(link.events.report) : null;
    // Wait for the base, the target, the window's and the Events view's
    // report (a link without base= would otherwise apply its view before
    // any report is open and lose the window).
    if (baseId === undefined || targetId === undefined || windowId === undefined || eventsId === undefined) return;
    if (!viewApplied.current) {
      viewApplied.current = true;
      if (baseId !== null) reports.select(baseId);
      if (targetId !== null) reports.setTarget(targetId);
      setView(link.view);
      const base = open.find((o) => o.id === baseId);
      if (link.rule && base) applyRule(link, base);
      if (link.window && windowId !== null && link.view === 'timeline') {
        showInTimeline({ report: windowId, start: BigInt(link.window.start), end: BigInt(link.window.end), zoom: true, exact: true, label: '' });
      }
      if (link.events && eventsId !== null && link.view === 'timeline') openEventsView({ report: eventsId, track: link.events.track });
    }
    if (claimed.current.size === link.reports.length) setPending(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, reports.reports]);

  function applyRule(link: LinkState, base: OpenReport) {
    const compare = ruleViewOf(link.view) === 'compare';
    const decl = base.rules.find((r) => r.name === link.rule && r.compare === compare);
    if (!decl) {
      addProblem(`"${link.rule}" is no ${compare ? 'compare' : 'statistics'} rule of this viewer: its first rule shows.`);
      return;
    }
    prefs.selectRule(ruleViewOf(link.view), decl.name);
    for (const [name, value] of Object.entries(link.settings)) {
      if (decl.options.some((o) => o.name === name)) prefs.setSetting(decl, name, value, base.id);
      else addProblem(`"${name}" is no option of ${decl.name}: ignored.`);
    }
    for (const [name, entries] of Object.entries(link.global)) {
      const spec = decl.globalOptions.find((g) => g.name === name);
      if (!spec) addProblem(`${decl.name} reads no --${name}: ignored.`);
      else ruleConfig.save(spec, name, entries).catch((e) => addProblem(`--${name}: ${message(e)}`));
    }
  }

  // Writes the view state into the URL once no link waits.
  const { reports: open, active, target } = reports;
  const ruleName = prefs.selectedRule[ruleViewOf(view)];
  const decl = active?.rules.find((r) => r.name === ruleName) ?? null;
  const values = decl ? prefs.settingsOf(decl) : null;
  useEffect(() => {
    if (pending) return;
    if (open.length === 0) {
      if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
      return;
    }
    const index = (r: OpenReport | null) => (r ? open.indexOf(r) : -1);
    const link: LinkState = {
      view,
      rule: decl?.name ?? null,
      settings: decl && values ? changedSettings(decl.options, values) : {},
      global: Object.fromEntries(
        (decl?.globalOptions ?? []).filter((g) => ruleConfig.config[g.name]).map((g) => [g.name, ruleConfig.config[g.name]]),
      ),
      reports: open.map((r) => ({
        file: r.summary.fileName,
        alias: r.alias === defaultAlias(r.summary.fileName) ? '' : r.alias,
        filterTime: r.timeFilter?.filterTime ?? '',
        filterHgtx: r.timeFilter?.filterHgtx ?? '',
      })),
      base: index(active) < 0 ? null : index(active),
      target: index(target) < 0 ? null : index(target),
      lang,
      // The timeline's window while it is shown, of the report it shows.
      window:
        view === 'timeline' && shownWindow && active && shownWindow.report === active.id
          ? { report: index(active), start: String(shownWindow.start), end: String(shownWindow.end) }
          : null,
      // The row the Events view lists, likewise.
      events:
        view === 'timeline' && shownEvents && active && shownEvents.report === active.id
          ? { report: index(active), track: shownEvents.track }
          : null,
    };
    const hash = `#${encodeLink(link)}`;
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
  }, [pending, open, active, target, view, decl, values, ruleConfig.config, lang, shownWindow, shownEvents]);

  const forget = useCallback(() => {
    setPending(null);
    setProblems([]);
  }, []);
  const waitingFor = pending ? pending.reports.filter((_, i) => !claimed.current.has(i)).map((r) => r.file) : [];
  return { waitingFor, problems, forget };
}

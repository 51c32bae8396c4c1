// The advice tab's runs: each expert rule the advice reads, run in the engine
// over the report's time range, one after the other (the engine has one
// thread), its result read for findings and released at once. A result too
// large to hold here (paged) is left out and named, rather than read page by
// page. Runs again when the report or its time range changes.
import { useEffect, useState } from 'react';
import type { OpenReport } from './reports';
import { useEngine } from './engine';
import { message } from './errors';
import { adviceFindings, ADVICE_RULES, type AdviceInputs, type AdviceRule, type Finding } from '../lib/advice';
import { pagedRowsLimit } from '../lib/paged';
import { decodeResult } from '../lib/result';

export interface AdviceState {
  findings: Finding[];
  /** Rules the report lacks the data for, or whose run failed (with the engine's message). */
  skipped: { rule: AdviceRule; why: 'unavailable' | 'paged' | 'failed'; message?: string }[];
  running: boolean;
}

export function useAdvice(report: OpenReport, enabled: boolean): AdviceState {
  const { client } = useEngine();
  const tf = report.timeFilter;
  const key = `${report.id}|${tf?.filterTime ?? ''}|${tf?.filterHgtx ?? ''}`;
  const [state, setState] = useState<AdviceState & { key: string }>({ key: '', findings: [], skipped: [], running: false });

  useEffect(() => {
    if (!enabled || state.key === key) return;
    let cancelled = false;
    setState({ key, findings: [], skipped: [], running: true });
    void (async () => {
      const inputs: AdviceInputs = {};
      const skipped: AdviceState['skipped'] = [];
      for (const rule of Object.keys(ADVICE_RULES) as AdviceRule[]) {
        if (cancelled) return;
        const decl = report.rules.find((r) => r.name === rule);
        if (!decl?.available) {
          skipped.push({ rule, why: 'unavailable' });
          continue;
        }
        try {
          const raw = await client.run(report.id, rule, { ...ADVICE_RULES[rule] }, pagedRowsLimit());
          if (raw.resultId !== undefined) void client.release(raw.resultId).catch(() => {});
          if (raw.paged) skipped.push({ rule, why: 'paged' });
          else inputs[rule] = decodeResult(raw);
        } catch (e) {
          skipped.push({ rule, why: 'failed', message: message(e) });
        }
      }
      if (!cancelled) setState({ key, findings: adviceFindings(inputs), skipped, running: false });
    })();
    return () => {
      cancelled = true;
      // Left unfinished: run again when asked again.
      setState((s) => (s.running && s.key === key ? { ...s, key: '' } : s));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);

  return { findings: state.findings, skipped: state.skipped, running: enabled && (state.running || state.key !== key) };
}

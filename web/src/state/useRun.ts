// One rule run that follows its inputs: whenever `key` changes (the report,
// the rule, its options, the time range), the rule runs again after a short
// pause for typing; an answer to an older key is dropped. The engine keeps
// each result under an id until it is released: the result shown is kept,
// the one it replaces is released.
import { useEffect, useRef, useState } from 'react';
import type { RawRuleResult } from '../engine/types';
import { decodeResult, type DecodedResult } from '../lib/result';
import { useEngine } from './engine';
import { message } from './errors';

export interface RunState {
  id: number;
  key: string;
  rule: string;
  result?: DecodedResult;
  /** The engine's id of the result: sort and render it by this id. */
  resultId?: number;
  error?: string;
}

export function useRun(
  key: string,
  enabled: boolean,
  rule: string,
  start: () => Promise<RawRuleResult>,
  /** The report's time zero the result's time columns are shown from (lib/time_zero.ts); null: as they are. */
  zero: bigint | null = null,
): { run: RunState | null; running: boolean } {
  const { client } = useEngine();
  const [run, setRun] = useState<RunState | null>(null);
  const seq = useRef(0);
  const latest = useRef('');
  latest.current = key;
  const startRef = useRef(start);
  startRef.current = start;
  const zeroRef = useRef(zero);
  zeroRef.current = zero;

  useEffect(() => {
    if (!enabled || run?.key === key) return;
    const timer = setTimeout(async () => {
      const id = ++seq.current;
      try {
        const raw = await startRef.current();
        if (latest.current !== key) {
          if (raw.resultId !== undefined) void client.release(raw.resultId).catch(() => {});
          return;
        }
        setRun({ id, key, rule, result: decodeResult(raw, zeroRef.current), resultId: raw.resultId });
      } catch (e) {
        if (latest.current === key) setRun({ id, key, rule, error: message(e) });
      }
    }, 150);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, enabled]);

  // The result shown before this one is of no more use to the engine.
  const shown = run?.resultId;
  useEffect(() => {
    if (shown === undefined) return;
    return () => void client.release(shown).catch(() => {});
  }, [shown, client]);

  return { run, running: enabled && run?.key !== key };
}

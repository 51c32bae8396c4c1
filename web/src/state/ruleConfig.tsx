// The global rule options (--callstack-group-config, ...) saved so far:
// option name -> entries; an option absent here has its declared defaults.
// The engine keeps them for every report, and so does the page.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RuleConfig } from '../engine/protocol';
import type { GlobalOptionSpec } from '../engine/types';
import { useEngine } from './engine';

interface RuleConfigState {
  config: RuleConfig;
  /** The saved entries of an option, else its declared defaults. */
  entries: (spec: GlobalOptionSpec) => string[];
  /** "" when `value` is a valid entry of option `name`, else the engine's line. */
  check: (name: string, value: string) => Promise<string>;
  /** Saves an option's entries in the engine (rejects with its line on a bad one). */
  save: (spec: GlobalOptionSpec | undefined, name: string, entries: string[]) => Promise<void>;
  /** Sends the saved options again (a fresh engine worker starts without them). */
  resend: () => Promise<void>;
}

const RuleConfigContext = createContext<RuleConfigState | null>(null);

export function RuleConfigProvider({ children }: { children: ReactNode }) {
  const { client } = useEngine();
  const [config, setConfig] = useState<RuleConfig>({});
  const ref = useRef(config);
  ref.current = config;
  const entries = useCallback((spec: GlobalOptionSpec) => config[spec.name] ?? spec.defaults, [config]);
  const check = useCallback((name: string, value: string) => client.checkRuleOption(name, value), [client]);
  const save = useCallback(
    async (spec: GlobalOptionSpec | undefined, name: string, list: string[]) => {
      const next = { ...ref.current };
      // The declared defaults (or nothing) are no configuration at all.
      const isDefault = list.length === 0 || (spec && JSON.stringify(list) === JSON.stringify(spec.defaults));
      if (isDefault) delete next[name];
      else next[name] = list;
      await client.setRuleConfig(next);
      setConfig(next);
    },
    [client],
  );
  const resend = useCallback(async () => {
    if (Object.keys(ref.current).length > 0) await client.setRuleConfig(ref.current);
  }, [client]);
  const value = useMemo(() => ({ config, entries, check, save, resend }), [config, entries, check, save, resend]);
  return <RuleConfigContext.Provider value={value}>{children}</RuleConfigContext.Provider>;
}

export function useRuleConfig(): RuleConfigState {
  const v = useContext(RuleConfigContext);
  if (!v) throw new Error('useRuleConfig outside RuleConfigProvider');
  return v;
}

// A rule's settings as the engine takes them, with every error a run would
// give: the panel's own checks (buildOptions) and, for regex options, the
// engine's answer to checkOption (the CLI's parser: PCRE2's error and its
// position), asked as the value is typed. The rule is not run while a value
// is invalid or its check is on its way.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RuleDecl } from '../engine/types';
import { buildOptions, regexChecks, type BuiltOptions, type SettingValues } from '../lib/options';
import { useEngine } from './engine';
import { message } from './errors';

export interface CheckedOptions extends BuiltOptions {
  /** A regex check is on its way. */
  pending: boolean;
}

const keyOf = (rule: string, name: string, value: string) => `${rule}\0${name}\0${value}`;

export function useRuleOptions(rule: RuleDecl | null, values: SettingValues): CheckedOptions | null {
  const { client } = useEngine();
  const built = useMemo(() => (rule ? buildOptions(rule, values) : null), [rule, values]);
  const checks = useMemo(() => (rule && built ? regexChecks(rule, built.options) : []), [rule, built]);
  // The engine's answers by rule, option and value ("" = valid); a value is asked once.
  const [answers, setAnswers] = useState<ReadonlyMap<string, string>>(new Map());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    if (!rule) return;
    for (const { name, value } of checks) {
      const key = keyOf(rule.name, name, value);
      if (asked.current.has(key)) continue;
      asked.current.add(key);
      void client.checkOption(rule.name, name, value).then(
        (error) => setAnswers((m) => new Map(m).set(key, error)),
        (e) => setAnswers((m) => new Map(m).set(key, message(e))),
      );
    }
  }, [rule, checks, client]);

  return useMemo(() => {
    if (!rule || !built) return null;
    const errors = { ...built.errors };
    let pending = false;
    for (const { name, value } of checks) {
      const answer = answers.get(keyOf(rule.name, name, value));
      if (answer === undefined) pending = true;
      else if (answer !== '') errors[name] = answer;
    }
    return { options: built.options, errors, pending };
  }, [rule, built, checks, answers]);
}

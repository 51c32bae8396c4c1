// The settings panel's state and its translation into the engine's options
// object (option name -> string value; "" for a flag; for ExclusiveFlags the
// group's name -> the chosen flag), the same options the CLI takes after
// `-r rule:`.
import type { OptionSpec, RuleDecl } from '../engine/types';

/** Per option name: Flag "1" | ""; Int, IdList, Choice: the text; ExclusiveFlags: the flag's name or "". */
export type SettingValues = Record<string, string>;

export type EngineOptions = Record<string, string>;

function truthy(v: string): boolean {
  return ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

/** Int options whose -1 or empty value means "no limit" (e.g. rows). */
function isNoLimit(opt: OptionSpec, value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  return v === '-1' && (opt.defaultValue === '' || opt.defaultValue === '-1');
}

export function defaultValueOf(opt: OptionSpec): string {
  switch (opt.kind) {
    case 'Flag':
      return truthy(opt.defaultValue) ? '1' : '';
    case 'Int':
      return opt.defaultValue === '' ? '' : opt.defaultValue;
    case 'IdList':
      return opt.defaultValue;
    case 'Choice':
    case 'ChoiceList':
    case 'Text':
      return opt.defaultValue;
    case 'ExclusiveFlags':
      return opt.flags.some((f) => f.name === opt.defaultValue) ? opt.defaultValue : '';
  }
}

export function defaultSettings(rule: RuleDecl): SettingValues {
  const out: SettingValues = {};
  for (const o of rule.options) out[o.name] = defaultValueOf(o);
  return out;
}

/** Parses "0/1", "0,1" or "0 1" into ids; null when malformed. "" or "All" -> []. */
export function parseIdList(text: string): number[] | null {
  const t = text.trim();
  if (t === '' || t.toLowerCase() === 'all') return [];
  const parts = t.split(/[\s,/]+/).filter(Boolean);
  const ids: number[] = [];
  for (const p of parts) {
    if (!/^\d+$/.test(p)) return null;
    ids.push(Number(p));
  }
  return ids;
}

/** "gemm/moe" -> ["gemm", "moe"] (a ChoiceList's value); "" -> [] (all). */
export function parseChoiceList(text: string): string[] {
  return text
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface BuiltOptions {
  options: EngineOptions;
  /** Option name -> what is wrong with its value; the rule is not run while any. */
  errors: Record<string, string>;
}

export function buildOptions(rule: RuleDecl, values: SettingValues): BuiltOptions {
  const options: EngineOptions = {};
  const errors: Record<string, string> = {};
  for (const opt of rule.options) {
    const raw = values[opt.name] ?? defaultValueOf(opt);
    switch (opt.kind) {
      case 'Flag':
        if (truthy(raw)) options[opt.name] = '';
        break;
      case 'Int': {
        if (isNoLimit(opt, raw)) break;
        const v = raw.trim();
        if (!/^-?\d+$/.test(v)) {
          errors[opt.name] = 'a whole number';
          break;
        }
        if (v !== opt.defaultValue) options[opt.name] = String(Number(v));
        break;
      }
      case 'IdList': {
        const ids = parseIdList(raw);
        if (ids === null) errors[opt.name] = 'ids separated by "/", e.g. 0/1';
        else if (ids.length > 0) options[opt.name] = ids.join('/');
        break;
      }
      case 'Choice':
      case 'Text':
        if (raw !== '' && raw !== opt.defaultValue) options[opt.name] = raw;
        break;
      case 'ChoiceList': {
        const picked = parseChoiceList(raw);
        const unknown = picked.filter((c) => !opt.choices.includes(c));
        if (unknown.length > 0) errors[opt.name] = `not one of ${opt.choices.join(', ')}: ${unknown.join(', ')}`;
        else if (picked.length > 0 && picked.length < opt.choices.length) options[opt.name] = picked.join('/');
        break;
      }
      case 'ExclusiveFlags':
        // The group's id names the option; its value is the chosen flag.
        if (raw !== '' && opt.flags.some((f) => f.name === raw)) options[opt.name] = raw;
        break;
    }
  }
  return { options, errors };
}

/** The regex options' values the engine is to check before the rule runs (unset ones need no check). */
export function regexChecks(rule: RuleDecl, options: EngineOptions): { name: string; value: string }[] {
  return rule.options.filter((o) => o.regex && options[o.name] !== undefined).map((o) => ({ name: o.name, value: options[o.name] }));
}

/** A shell word: single-quoted unless it is plain (`'a=(x|y)'`, `'it'\''s'`). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_.,:=@%+/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The global options a rule reads, as the CLI takes them: ` --name 'entry'` per saved entry. */
export function cliGlobalOptions(rule: Pick<RuleDecl, 'globalOptions'>, config: Record<string, string[]>): string {
  return rule.globalOptions
    .flatMap((g) => (config[g.name] ?? []).map((entry) => ` --${g.name} ${shellWord(entry)}`))
    .join('');
}

/** The rule as the CLI writes it: `hggc_ppu_kern_sum:base:device=0/1`. */
export function cliSpec(rule: Pick<RuleDecl, 'name' | 'options'>, options: EngineOptions): string {
  const esc = (s: string) => s.replace(/,/g, '\\,').replace(/:/g, '\\:');
  const parts = Object.entries(options).map(([k, v]) => {
    const opt = rule.options.find((o) => o.name === k);
    if (opt?.kind === 'ExclusiveFlags') return v; // the flag alone
    return v === '' ? k : `${k}=${esc(v)}`;
  });
  return [rule.name, ...parts].join(':');
}

// Rule declarations as listRules() sends them, from a partial one: every field
// the C++ writer (core/rules/rule_json.cc) always writes gets the value it
// writes for an empty declaration field ("" / [] / false), so a test names
// only what it is about and the strict validator (engine/normalize.ts) still
// sees a whole answer.
import { normalizeRules } from '../../web/src/engine/normalize';
import type { RuleDecl } from '../../web/src/engine/types';

type Partial = Record<string, unknown>;

const OPTION: Partial = {
  name: '', kind: 'flag', placeholder: '', label: '', labelZh: '', help: '', helpZh: '', defaultValue: '',
  defaultLabel: '', defaultLabelZh: '', inverted: false, group: '', groupZh: '', choices: [], choiceLabels: [],
  choiceLabelsZh: [], flags: [],
};
const FLAG: Partial = { name: '', label: '', help: '', helpZh: '' };
const COLUMN: Partial = { name: '', unit: '', kind: 'text', role: 'value', header: '', help: '' };
const GLOBAL: Partial = { name: '', placeholder: '', label: '', labelZh: '', help: '', helpZh: '', defaults: [] };
const RULE: Partial = {
  name: '', command: 'stats', compare: false, title: '', titleZh: '', topic: '', description: '', descriptionZh: '',
  options: [], globalOptions: [], columns: [], pie: { valueColumn: '', keyColumns: [], countRows: false },
  sumColumns: [], treeLevels: [], summaryRow: '',
};

const each = (v: unknown, fill: (p: Partial) => Partial) => (Array.isArray(v) ? v.map((x) => fill(x as Partial)) : v);

export function wireOption(p: Partial): Partial {
  return { ...OPTION, ...p, flags: each(p.flags ?? [], (f) => ({ ...FLAG, ...f })) };
}

export function wireColumn(p: Partial): Partial {
  return { ...COLUMN, ...p };
}

export function wireRule(p: Partial): Partial {
  const pie = p.pie === undefined ? RULE.pie : { ...(RULE.pie as Partial), ...(p.pie as Partial) };
  const compare = p.compare === true ? { compareShare: '' } : {};
  return {
    ...RULE,
    ...compare,
    ...p,
    pie,
    options: each(p.options ?? [], wireOption),
    columns: each(p.columns ?? [], wireColumn),
    globalOptions: each(p.globalOptions ?? [], (g) => ({ ...GLOBAL, ...g })),
  };
}

/** normalizeRules on whole declarations made from partial ones. */
export function rulesFrom(partials: Partial[]): RuleDecl[] {
  return normalizeRules(partials.map(wireRule));
}

/** A report summary as open() sends it (core/rules/rule_json.cc summaryJson), from a partial one. */
export function wireSummary(p: Partial): Partial {
  return { path: '', hostName: '', generator: '', captureStart: null, captureEnd: null, tables: [], devices: [], processes: [], threads: [], threadCount: 0, meta: [], ...p };
}

// Turns the engine's JSON (rule declarations, report summary) into the typed
// shapes of types.ts, strictly: the bridge contract (docs/bridge-contract.md)
// has one source, the C++ writer (core/rules/rule_json.cc) and its enum names
// (core/rules/bridge_schema.h -> bridge_schema.gen.ts). An answer with a field
// missing, of the wrong type or with an unknown enum name throws a
// BridgeContractError naming the field and the value, so drift shows at once.
import {
  WIRE_CELL_KINDS,
  WIRE_COLUMN_ROLES,
  WIRE_OPTION_KINDS,
  WIRE_RULE_COMMANDS,
  type WireCellKind,
  type WireOptionKind,
} from './bridge_schema.gen';
import type {
  ColumnRole,
  CellKind,
  ColumnSpec,
  DeviceInfo,
  OptionKind,
  OptionSpec,
  PieSpec,
  ProcessInfo,
  ReportSummary,
  RuleDecl,
  ThreadInfo,
} from './types';

type Json = Record<string, unknown>;

/** A malformed engine answer: `field` is its path ("rules[3].options[0].kind"). */
export class BridgeContractError extends Error {
  constructor(
    readonly field: string,
    readonly value: unknown,
    expected: string,
  ) {
    super(`The engine's answer does not match the bridge contract: ${field} is ${shown(value)}, expected ${expected}`);
    this.name = 'BridgeContractError';
  }
}

function shown(v: unknown): string {
  if (v === undefined) return 'missing';
  try {
    const s = JSON.stringify(v);
    return s.length > 60 ? s.slice(0, 57) + '...' : s;
  } catch {
    return String(v);
  }
}

// The viewer's option kinds per wire kind: a Record over the generated union,
// so tsc fails when the C++ enum gains a kind this map does not place.
// Regex, RegexList and TextList are typed as text (regex: checked by the engine).
const VIEWER_OPTION_KIND: Record<WireOptionKind, OptionKind> = {
  flag: 'Flag',
  int: 'Int',
  idList: 'IdList',
  choice: 'Choice',
  exclusiveFlags: 'ExclusiveFlags',
  regex: 'Text',
  regexList: 'Text',
  choiceList: 'ChoiceList',
  textList: 'Text',
};
const REGEX_KINDS: ReadonlySet<WireOptionKind> = new Set<WireOptionKind>(['regex', 'regexList']);
const VIEWER_CELL_KIND: Record<WireCellKind, CellKind> = { int: 'Int', decimal1: 'Decimal1', text: 'Text' };

function objAt(v: unknown, field: string): Json {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new BridgeContractError(field, v, 'an object');
  return v as Json;
}

function strAt(o: Json, key: string, field: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new BridgeContractError(`${field}.${key}`, v, 'a string');
  return v;
}

function boolAt(o: Json, key: string, field: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new BridgeContractError(`${field}.${key}`, v, 'true or false');
  return v;
}

function numAt(o: Json, key: string, field: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BridgeContractError(`${field}.${key}`, v, 'a number');
  return v;
}

function listAt<T>(o: Json, key: string, field: string, each: (v: unknown, field: string) => T): T[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new BridgeContractError(`${field}.${key}`, v, 'an array');
  return v.map((item, i) => each(item, `${field}.${key}[${i}]`));
}

function strItem(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new BridgeContractError(field, v, 'a string');
  return v;
}

function enumAt<T extends string>(o: Json, key: string, field: string, names: readonly T[]): T {
  const v = o[key];
  if (typeof v !== 'string' || !(names as readonly string[]).includes(v))
    throw new BridgeContractError(`${field}.${key}`, v, `one of ${names.join(', ')}`);
  return v as T;
}

// A run result's column kind (lib/result.ts): the cell array's type is the
// ground truth there, the name only refines Int vs Decimal1.
export function cellKindOf(v: unknown, fallback: CellKind = 'Text'): CellKind {
  if (typeof v === 'string' && v in VIEWER_CELL_KIND) return VIEWER_CELL_KIND[v as WireCellKind];
  if (typeof v === 'string') {
    const hit = (Object.values(VIEWER_CELL_KIND) as string[]).find((k) => k === v);
    if (hit) return hit as CellKind;
  }
  return fallback;
}

export function headerOf(name: string, unit: string): string {
  return unit ? `${name} (${unit})` : name;
}

export function normalizeColumn(raw: unknown, field = 'column'): ColumnSpec {
  const o = objAt(raw, field);
  return {
    name: strAt(o, 'name', field),
    unit: strAt(o, 'unit', field),
    kind: VIEWER_CELL_KIND[enumAt(o, 'kind', field, WIRE_CELL_KINDS)],
    help: strAt(o, 'help', field),
    header: strAt(o, 'header', field),
    role: enumAt<ColumnRole>(o, 'role', field, WIRE_COLUMN_ROLES),
  };
}

export function normalizeOption(raw: unknown, field = 'option'): OptionSpec {
  const o = objAt(raw, field);
  const name = strAt(o, 'name', field);
  const wireKind = enumAt(o, 'kind', field, WIRE_OPTION_KINDS);
  const label = strAt(o, 'label', field) || name;
  const help = strAt(o, 'help', field);
  const group = strAt(o, 'group', field);
  return {
    name,
    kind: VIEWER_OPTION_KIND[wireKind],
    placeholder: strAt(o, 'placeholder', field),
    label,
    // A declaration without Chinese text ("") shows the English one.
    labelZh: strAt(o, 'labelZh', field) || label,
    help,
    helpZh: strAt(o, 'helpZh', field) || help,
    defaultValue: strAt(o, 'defaultValue', field),
    defaultLabel: strAt(o, 'defaultLabel', field),
    defaultLabelZh: strAt(o, 'defaultLabelZh', field),
    choices: listAt(o, 'choices', field, strItem),
    choiceLabels: listAt(o, 'choiceLabels', field, strItem),
    choiceLabelsZh: listAt(o, 'choiceLabelsZh', field, strItem),
    flags: listAt(o, 'flags', field, (f, ff) => {
      const fo = objAt(f, ff);
      const fname = strAt(fo, 'name', ff);
      const fhelp = strAt(fo, 'help', ff);
      return { name: fname, label: strAt(fo, 'label', ff) || fname, help: fhelp, helpZh: strAt(fo, 'helpZh', ff) || fhelp };
    }),
    inverted: boolAt(o, 'inverted', field),
    group,
    groupZh: strAt(o, 'groupZh', field) || group,
    regex: REGEX_KINDS.has(wireKind),
  };
}

/** The rule's pie; null when it declares none (no key columns, or neither a value column nor counting). */
export function normalizePie(raw: unknown, field = 'pie'): PieSpec | null {
  const o = objAt(raw, field);
  const valueColumn = strAt(o, 'valueColumn', field);
  const keyColumns = listAt(o, 'keyColumns', field, strItem);
  const countRows = boolAt(o, 'countRows', field);
  if ((!valueColumn && !countRows) || keyColumns.length === 0) return null;
  return { valueColumn: countRows ? '' : valueColumn, keyColumns, countRows };
}

export function normalizeRule(raw: unknown, field = 'rule'): RuleDecl {
  const o = objAt(raw, field);
  const name = strAt(o, 'name', field);
  const compare = boolAt(o, 'compare', field);
  // `available` and `missing` come only with a report; `missing` only when not available.
  const available = o.available === undefined ? true : boolAt(o, 'available', field);
  const title = strAt(o, 'title', field) || name;
  const description = strAt(o, 'description', field);
  return {
    name,
    command: enumAt(o, 'command', field, WIRE_RULE_COMMANDS),
    compare,
    compareShare: compare ? strAt(o, 'compareShare', field) : '',
    title,
    titleZh: strAt(o, 'titleZh', field) || title,
    topic: strAt(o, 'topic', field) || 'Other',
    description,
    descriptionZh: strAt(o, 'descriptionZh', field) || description,
    options: listAt(o, 'options', field, normalizeOption),
    globalOptions: listAt(o, 'globalOptions', field, (g, gf) => {
      const go = objAt(g, gf);
      const gname = strAt(go, 'name', gf);
      const glabel = strAt(go, 'label', gf) || gname;
      const ghelp = strAt(go, 'help', gf);
      return {
        name: gname,
        placeholder: strAt(go, 'placeholder', gf),
        label: glabel,
        labelZh: strAt(go, 'labelZh', gf) || glabel,
        help: ghelp,
        helpZh: strAt(go, 'helpZh', gf) || ghelp,
        defaults: listAt(go, 'defaults', gf, strItem),
      };
    }),
    columns: listAt(o, 'columns', field, normalizeColumn),
    // The engine sends what a rule needs as `available`/`missing`, not as a list.
    needs: [],
    pie: normalizePie(o.pie, `${field}.pie`),
    sumColumns: listAt(o, 'sumColumns', field, strItem),
    summaryRow: strAt(o, 'summaryRow', field),
    treeLevels: listAt(o, 'treeLevels', field, strItem),
    available,
    missing: available ? '' : strAt(o, 'missing', field),
  };
}

export function normalizeRules(raw: unknown): RuleDecl[] {
  if (!Array.isArray(raw)) throw new BridgeContractError('rules', raw, 'an array');
  return raw.map((r, i) => normalizeRule(r, `rules[${i}]`));
}

// A capture time: exact integer ns, or null for none (the engine's kNoValue).
// The engine sends a BigInt (epoch ns, a Kineto trace's, are past 2^53,
// where a JSON number rounds); a whole number that a double holds exactly
// is taken too.
function timeAt(o: Json, key: string, field: string): bigint | null {
  const v = o[key];
  if (v === null) return null;
  if (typeof v === 'bigint') return v;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new BridgeContractError(`${field}.${key}`, v, 'a number');
  return BigInt(v);
}

const KNOWN_SUMMARY_KEYS = new Set([
  'path', 'hostName', 'generator', 'captureStart', 'captureEnd', 'tables', 'devices', 'processes', 'threads',
  'threadCount', 'meta',
]);

/** A device attribute: a text, a number or null (unknown); anything else breaks the contract. */
function attributeAt(o: Json, key: string, field: string): string | number | null {
  const v = o[key];
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  throw new BridgeContractError(`${field}.${key}`, v, 'a text, a number or null');
}

/**
 * The opened name from the engine's summary.path without its directories:
 * "/reports/3/a.json.gz (and 7 more)" -> "a.json.gz (and 7 more)"; `fallback`
 * when the engine gave no path.
 */
export function openedName(path: string, fallback: string): string {
  const m = /^(.*?)( \(and \d+ more\))?$/s.exec(path)!;
  const first = m[1];
  const base = first.slice(first.lastIndexOf('/') + 1);
  return base ? base + (m[2] ?? '') : fallback;
}

export function normalizeSummary(
  raw: unknown,
  fileName: string,
  fileSize: number,
  fileNames: string[] = [fileName],
): ReportSummary {
  const field = 'summary';
  const o = objAt(raw, field);
  const tables = listAt(o, 'tables', field, strItem);
  const devices: DeviceInfo[] = listAt(o, 'devices', field, (d, df) => {
    const dobj = objAt(d, df);
    const attributes: DeviceInfo['attributes'] = {};
    for (const k of Object.keys(dobj)) if (k !== 'id' && k !== 'name') attributes[k] = attributeAt(dobj, k, df);
    return { id: numAt(dobj, 'id', df), name: strAt(dobj, 'name', df), attributes };
  });
  const processes: ProcessInfo[] = listAt(o, 'processes', field, (p, pf) => {
    const po = objAt(p, pf);
    return { pid: numAt(po, 'pid', pf), name: strAt(po, 'name', pf) };
  });
  const threads: ThreadInfo[] = listAt(o, 'threads', field, (t, tf) => {
    const to = objAt(t, tf);
    return { pid: numAt(to, 'pid', tf), tid: numAt(to, 'tid', tf), name: strAt(to, 'name', tf) };
  });
  const meta: [string, string][] = listAt(o, 'meta', field, (m, mf) => {
    const mo = objAt(m, mf);
    return [strAt(mo, 'name', mf), strAt(mo, 'value', mf)];
  });
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!KNOWN_SUMMARY_KEYS.has(k)) extra[k] = v;
  const path = strAt(o, 'path', field);
  const several = fileNames.length > 1 ? ` (and ${fileNames.length - 1} more)` : '';
  return {
    name: openedName(path, fileName + several),
    fileName,
    fileNames: fileNames.length > 0 ? fileNames : [fileName],
    fileSize,
    path,
    hostName: strAt(o, 'hostName', field),
    generator: strAt(o, 'generator', field),
    captureStart: timeAt(o, 'captureStart', field),
    captureEnd: timeAt(o, 'captureEnd', field),
    tables,
    devices,
    processes,
    threads,
    threadCount: numAt(o, 'threadCount', field),
    meta,
    extra,
  };
}

// Turns the engine's JSON (rule declarations, report summary, run results)
// into the typed shapes of types.ts. Tolerant of enum values given as numbers
// or in another case, and of missing optional fields, so a small change in the
// bindings' JSON does not break the page.
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
} from './types';

type Json = Record<string, unknown>;

// In the order of the C++ enum (numbers index it); Text is the viewer's own.
// The kinds the panel has a control for; any other is free text.
const OPTION_KINDS: OptionKind[] = ['Flag', 'Int', 'IdList', 'Choice', 'ExclusiveFlags', 'ChoiceList'];
const CELL_KINDS: CellKind[] = ['Int', 'Decimal1', 'Text'];

function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function enumOf<T extends string>(values: T[], v: unknown, fallback: T): T {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < values.length) return values[v];
  if (typeof v === 'string') {
    const s = squash(v);
    const hit = values.find((k) => squash(k) === s);
    if (hit) return hit;
    if (s === 'decimal' || s === 'real' || s === 'double') return values.find((k) => k === 'Decimal1') ?? fallback;
    if (s === 'string' || s === 'regex' || s === 'regexlist') return values.find((k) => k === 'Text') ?? fallback;
  }
  return fallback;
}

export function cellKindOf(v: unknown, fallback: CellKind = 'Text'): CellKind {
  return enumOf(CELL_KINDS, v, fallback);
}

function str(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : String(v);
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function obj(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

export function headerOf(name: string, unit: string): string {
  return unit ? `${name} (${unit})` : name;
}

export function normalizeColumn(raw: unknown): ColumnSpec {
  const o = obj(raw);
  const name = str(o.name);
  const unit = str(o.unit);
  return {
    name,
    unit,
    kind: cellKindOf(o.kind),
    help: str(o.help),
    header: str(o.header) || headerOf(name, unit),
    role: enumOf<ColumnRole>(['value', 'key', 'attribute'], o.role, 'value'),
  };
}

export function normalizeOption(raw: unknown): OptionSpec {
  const o = obj(raw);
  return {
    name: str(o.name),
    kind: enumOf(OPTION_KINDS, o.kind, 'Text'),
    placeholder: str(o.placeholder),
    label: str(o.label) || str(o.name),
    // An engine without Chinese labels: the English one.
    labelZh: str(o.labelZh) || str(o.label) || str(o.name),
    help: str(o.help),
    // An engine without Chinese help: the English one.
    helpZh: str(o.helpZh) || str(o.help),
    defaultValue: str(o.defaultValue ?? o.default),
    defaultLabel: str(o.defaultLabel),
    defaultLabelZh: str(o.defaultLabelZh),
    choices: arr(o.choices).map(str),
    choiceLabels: arr(o.choiceLabels).map(str),
    choiceLabelsZh: arr(o.choiceLabelsZh).map(str),
    flags: arr(o.flags).map((f) => {
      const fo = obj(f);
      return {
        name: str(fo.name),
        label: str(fo.label) || str(fo.name),
        help: str(fo.help),
        helpZh: str(fo.helpZh) || str(fo.help),
      };
    }),
    inverted: o.inverted === true,
    group: str(o.group),
    groupZh: str(o.groupZh) || str(o.group),
    regex: ['regex', 'regexlist'].includes(squash(str(o.kind))),
  };
}

export function normalizePie(raw: unknown): PieSpec | null {
  const o = obj(raw);
  const valueColumn = str(o.valueColumn);
  const keyColumns = arr(o.keyColumns).map(str).filter(Boolean);
  const countRows = o.countRows === true;
  if ((!valueColumn && !countRows) || keyColumns.length === 0) return null;
  return { valueColumn: countRows ? '' : valueColumn, keyColumns, countRows };
}

export function normalizeRule(raw: unknown): RuleDecl {
  const o = obj(raw);
  const available = o.available === undefined ? true : Boolean(o.available);
  return {
    name: str(o.name),
    command: str(o.command) === 'analyze' ? 'analyze' : 'stats',
    compare: o.compare === true,
    compareShare: str(o.compareShare),
    title: str(o.title) || str(o.name),
    titleZh: str(o.titleZh) || str(o.title) || str(o.name),
    topic: str(o.topic) || 'Other',
    description: str(o.description),
    descriptionZh: str(o.descriptionZh) || str(o.description),
    options: arr(o.options).map(normalizeOption),
    globalOptions: arr(o.globalOptions)
      .map((g) => {
        const go = obj(g);
        return {
          name: str(go.name),
          placeholder: str(go.placeholder),
          label: str(go.label) || str(go.name),
          labelZh: str(go.labelZh) || str(go.label) || str(go.name),
          help: str(go.help),
          helpZh: str(go.helpZh) || str(go.help),
          defaults: arr(go.defaults).map(str),
        };
      })
      .filter((g) => g.name),
    columns: arr(o.columns).map(normalizeColumn),
    needs: arr(o.needs).map((n) => {
      const no = obj(n);
      return { table: str(no.table), what: str(no.what), collection: str(no.collection) };
    }),
    pie: normalizePie(o.pie),
    sumColumns: arr(o.sumColumns).map(str).filter(Boolean),
    summaryRow: str(o.summaryRow),
    treeLevels: arr(o.treeLevels).map(str).filter(Boolean),
    available,
    missing: str(o.missing),
  };
}

export function normalizeRules(raw: unknown): RuleDecl[] {
  return arr(raw).map(normalizeRule).filter((r) => r.name);
}

function timeOf(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) return null;
  if (n <= -9e18) return null; // INT64_MIN: no value
  return n;
}

const KNOWN_SUMMARY_KEYS = new Set([
  'path', 'hostName', 'host', 'generator', 'captureStart', 'captureEnd', 'tables', 'devices', 'processes',
]);

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
  const o = obj(raw);
  const tables = arr(o.tables)
    .map((t) => (typeof t === 'string' ? t : str(obj(t).name)))
    .filter(Boolean);
  const devices: DeviceInfo[] = arr(o.devices)
    .map((d) => {
      if (typeof d === 'number') return { id: d, name: '' };
      const dobj = obj(d);
      const id = Number(dobj.id ?? dobj.deviceId);
      return { id, name: str(dobj.name) };
    })
    .filter((d) => Number.isFinite(d.id));
  const processes: ProcessInfo[] = arr(o.processes)
    .map((p) => {
      if (typeof p === 'number') return { pid: p, name: '' };
      const po = obj(p);
      return { pid: Number(po.pid ?? po.id), name: str(po.name) };
    })
    .filter((p) => Number.isFinite(p.pid));
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (!KNOWN_SUMMARY_KEYS.has(k)) extra[k] = v;
  const path = str(o.path);
  const several = fileNames.length > 1 ? ` (and ${fileNames.length - 1} more)` : '';
  return {
    name: openedName(path, fileName + several),
    fileName,
    fileNames: fileNames.length > 0 ? fileNames : [fileName],
    fileSize,
    path,
    hostName: str(o.hostName ?? o.host),
    generator: str(o.generator),
    captureStart: timeOf(o.captureStart),
    captureEnd: timeOf(o.captureEnd),
    tables,
    devices,
    processes,
    extra,
  };
}

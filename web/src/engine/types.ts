// Shapes of what the engine returns (docs/architecture.md, "The WebAssembly API")
// after validation. Raw JSON from the engine goes through normalize.ts first, which
// rejects an answer that breaks the contract (docs/bridge-contract.md).

import type { WireEventTable, WireEventsViewKind } from './bridge_schema.gen';

/**
 * The engine's kinds, plus Text: free text for a kind this viewer does not know
 * (a regex, a list of operator types). ChoiceList: several of `choices`, "/"-joined; none = all.
 */
export type OptionKind = 'Flag' | 'Int' | 'IdList' | 'Choice' | 'ChoiceList' | 'ExclusiveFlags' | 'Text';
export type CellKind = 'Int' | 'Decimal1' | 'Text';

export interface FlagSpec {
  name: string;
  label: string;
  help: string;
  /** The help in Chinese (the label is a name the documentation keeps: Base, Mangled). */
  helpZh: string;
}

export interface OptionSpec {
  name: string;
  kind: OptionKind;
  placeholder: string;
  label: string;
  /** The label in Chinese. */
  labelZh: string;
  help: string;
  /** The help in Chinese (the rule documentation's wording). */
  helpZh: string;
  defaultValue: string;
  defaultLabel: string;
  /** The default's text in Chinese ("": the English one). */
  defaultLabelZh: string;
  choices: string[];
  /** Choice: the panel's text per choice ("" or missing: the value itself). */
  choiceLabels: string[];
  /** The same in Chinese ("" or missing: the English one). */
  choiceLabelsZh: string[];
  flags: FlagSpec[];
  /** A Flag that turns something off (`no-graph-mapping`): shown as a checkbox for the thing itself, ticked by default. */
  inverted: boolean;
  /** The settings group it is shown in ("Merge operator parameters"); "" for none. */
  group: string;
  groupZh: string;
  /** A regex kind (regex, regexList; shown as Text): the engine checks the value as it is typed (checkOption). */
  regex: boolean;
}

/**
 * A global option (the CLI's repeatable `--name VALUE`, e.g.
 * --callstack-group-config): a list of entries, one per occurrence, shared by
 * every rule that reads it.
 */
export interface GlobalOptionSpec {
  name: string;
  placeholder: string;
  label: string;
  labelZh: string;
  help: string;
  helpZh: string;
  /** The entries that apply when none is given (the built-in list). */
  defaults: string[];
}

/** A column's role: a key matches rows across reports, a value is measured per row, an attribute describes it
 * (in a compare rule: key = one text for both sides, value = a "base / target" cell, attribute = one side's own cell). */
export type ColumnRole = 'value' | 'key' | 'attribute';

export interface ColumnSpec {
  name: string;
  unit: string;
  kind: CellKind;
  help: string;
  header: string;
  role: ColumnRole;
}

export interface PieSpec {
  /** The column summed per key; "" with `countRows`. */
  valueColumn: string;
  keyColumns: string[];
  /** Count rows per key instead of summing a column ("which device is most often last"). */
  countRows: boolean;
}

export interface DataNeed {
  table: string;
  what: string;
  collection: string;
}

export interface RuleDecl {
  name: string;
  /** The CLI command that runs it: `stats`, or `analyze` for the expert rules. */
  command: 'stats' | 'analyze';
  /** A compare rule: it runs on a base and a target report (the compare view). */
  compare: boolean;
  /** A compare rule's column of "base / target" shares that orders its rows (the hotspot chart). */
  compareShare: string;
  title: string;
  /** The title in Chinese (the rule documentation's section title). */
  titleZh: string;
  topic: string;
  description: string;
  /** The description in Chinese (the documentation's 统计规则). */
  descriptionZh: string;
  options: OptionSpec[];
  /** The global options the rule reads (edited as lists in its settings). */
  globalOptions: GlobalOptionSpec[];
  columns: ColumnSpec[];
  needs: DataNeed[];
  pie: PieSpec | null;
  /** Columns whose selected rows (or all rows) the table sums in its second header row. */
  sumColumns: string[];
  /** The first text column's value of a summary row that no sum counts ("Summary"); "" for none. */
  summaryRow: string;
  /** Rows are paths through nested groups: the columns that start each level (the breakdown tree); [] = flat. */
  treeLevels: string[];
  available: boolean;
  missing: string;
}

export interface DeviceInfo {
  id: number;
  name: string;
  /** TARGET_INFO_PPU's columns by name, as the engine sent them; null where the report does not say. */
  attributes: Record<string, string | number | null>;
}

/** A named thread (ThreadNames). */
export interface ThreadInfo {
  pid: number;
  tid: number;
  name: string;
}

export interface ProcessInfo {
  pid: number;
  name: string;
}

/** What openReport's `summary` holds, plus what the worker knows of the file. */
export interface ReportSummary {
  /** What was opened, as the engine names it without directories: "a.json.gz (and 7 more)". */
  name: string;
  /** The first file's name. */
  fileName: string;
  /** Every file opened (several rank traces make one report). */
  fileNames: string[];
  /** All files together, in bytes. */
  fileSize: number;
  /** The engine's summary.path. */
  path: string;
  hostName: string;
  generator: string;
  /** META_DATA's capture start and end, exact ns (the time zero: lib/time_zero.ts); null when unknown. */
  captureStart: bigint | null;
  captureEnd: bigint | null;
  tables: string[];
  devices: DeviceInfo[];
  processes: ProcessInfo[];
  /** The named threads, by global id (at most the engine's first 2000: threadCount says how many). */
  threads: ThreadInfo[];
  threadCount: number;
  /** META_DATA's other entries, as stored: epochOffset, importedFrom, system.* (Nsight imports). */
  meta: [string, string][];
  /** Any other summary fields the engine sends, shown as they are. */
  extra: Record<string, unknown>;
}

/** A paged result's columns the viewer shows as ns since a time zero (lib/time_zero.ts): its search matches them so. */
export interface ShownTimes {
  /** The zero, decimal ns (epoch ns are past a double's 2^53). */
  zero: string;
  columns: number[];
}

/** A time window in absolute ns, exact (BigInt); null for an open side (INT64_MIN / INT64_MAX). */
export type TimeWindow = [bigint | null, bigint | null];

/** A result column: Int cells exact as int64 (INT64_MIN = "-"), Decimal1 as doubles (NaN = "-"), Text as pool indices. */
export type CellArray = Float64Array | Uint32Array | BigInt64Array;

/** One kind of time span of a result's rows; INT64_MIN marks a row without one. */
export interface RowSpans {
  name: string;
  start: BigInt64Array;
  end: BigInt64Array;
}

/** A report event by identity: its report table and its row there (core/table/table.h EventTable). */
export interface EventRow {
  table: Exclude<WireEventTable, 'none'>;
  index: number;
}

/**
 * One kind of report event a result's rows stand for (a trace row's kernel,
 * its launching API call), by identity: per row the report table (an index
 * into WIRE_EVENT_TABLES, 0 = none) and the row of that table. The timeline
 * finds the very event by it (timelineFindEvent).
 */
export interface RowEvents {
  name: string;
  table: Uint8Array;
  index: Uint32Array;
}

/** A file a rule made: the viewer offers it as "<report>_<name>", the bytes the CLI writes. */
export interface RuleFile {
  name: string;
  text: string;
}

/** runRule's result as it crosses from the worker (typed arrays transferred). */
export interface RawRuleResult {
  columns: { name: string; unit: string; kind: string | number; header?: string }[];
  rowCount: number;
  /** All distinct texts joined by NUL (the worker decodes the engine's UTF-8 bytes). */
  textPool: string;
  cells: CellArray[];
  /** Per row, the time spans it stands for (a trace row's HGTX range, its device activity), in ns. */
  spans?: RowSpans[];
  /** Per row, the report events it stands for (core/table/table.h Table::setEvent). */
  events?: RowEvents[];
  /** What the rule had to leave out, one line each (the CLI's stderr warnings). */
  warnings?: string[];
  /** Files the rule made besides its table (ppu_op_unit_test's Python tests), named "<rule>.<ext>". */
  files?: RuleFile[];
  /** The engine's id of this result: sort, render and release it by this id. */
  resultId?: number;
  /** Kept in the engine, answered without cells (too many rows to hold here): pageRows gives rows. */
  paged?: boolean;
  /** A paged result's span names (its rows' spans come with each page). */
  spanNames?: string[];
  /** A paged result's event names (its rows' events come with each page). */
  eventNames?: string[];
}

/** A paged result's pie data: each key's summed value. */
export interface KeyTotals {
  keys: string[];
  values: Float64Array;
}

/** A paged result's column sum: exact digits for an integer column, else a double. */
export interface ColumnTotal {
  col: number;
  digits?: string;
  value?: number;
}

/** A timeline row's Events view (eventsView): a paged result, which columns it has, and its row (track id). */
export interface EventsViewResult extends RawRuleResult {
  kind: WireEventsViewKind;
  track: number;
}

// Messages between the UI thread (client.ts) and the engine worker (worker.ts).
// Coarse requests, each with an id; every response carries the id back.
import type { SelectionStats, TimelineEvent, TimelineInfo, TimelineRelated, TimelineShares, TimelineWindowSlices } from './timeline_types';
import type { ColumnTotal, EventRow, EventsViewResult, KeyTotals, RawRuleResult, ShownTimes, TimeWindow } from './types';
import type { WireEventTable } from './bridge_schema.gen';

export const PROTOCOL_VERSION = 13;

/** The global rule options: option name -> its entries (one per CLI occurrence). */
export type RuleConfig = Record<string, string[]>;

// `report` and `result` are the engine's handles (wasm/engine_bindings.cc).
export type EngineRequest =
  | { type: 'init'; engineUrl: string }
  | { type: 'open'; files: File[] }
  | { type: 'openDemo'; url: string; fileName: string }
  | { type: 'close'; report: number }
  | { type: 'listRules'; report: number }
  | { type: 'run'; report: number; rule: string; options: Record<string, string>; cellLimit?: number }
  | { type: 'runCompare'; base: number; target: number; rule: string; options: Record<string, string> }
  | { type: 'sort'; result: number; column: number; descending: boolean }
  | { type: 'exportCsv'; result: number }
  | { type: 'renderXlsx'; result: number; sheet: string }
  | { type: 'release'; result: number }
  | { type: 'setTimeFilter'; report: number; filterTime: string; filterHgtx: string }
  | { type: 'setRuleConfig'; config: RuleConfig }
  | { type: 'checkRuleOption'; name: string; value: string }
  | { type: 'timelineTracks'; report: number }
  // Every row's busy share inside the statistics range (absolute ns).
  | { type: 'timelineShares'; report: number; from: bigint; to: bigint }
  // Rows of these streams' kernels by base name, built and kept (timelineTracks lists them after).
  | { type: 'timelineKernelGroups'; report: number; tracks: number[] }
  // The same by HGTX range (the kernels' innermost associated range).
  | { type: 'timelineKernelRangeGroups'; report: number; tracks: number[] }
  | { type: 'timelineWindow'; report: number; from: bigint; to: bigint; pixels: number; tracks: number[] }
  | { type: 'timelineRelated'; report: number; track: number; event: number }
  // A drag selection's figures and its events grouped by kind and name (a result, paged above cellLimit rows).
  | { type: 'timelineSelection'; report: number; from: bigint; to: bigint; cellLimit?: number }
  // A rule row's event on the timeline, a timeline event's table row, and that row's place in a result.
  | { type: 'timelineFindEvent'; report: number; table: WireEventTable; index: number }
  | { type: 'timelineEventRow'; report: number; track: number; event: number }
  | { type: 'resultRowOfEvent'; result: number; table: WireEventTable; index: number }
  // A timeline row's Events view (a paged result), a row's event and an event's row there.
  | { type: 'eventsView'; report: number; track: number }
  | { type: 'eventsViewEvent'; result: number; row: number }
  | { type: 'eventsViewRow'; result: number; event: number }
  | { type: 'checkOption'; rule: string; name: string; value: string }
  // A paged result's rows and the questions the viewer asks of it (wasm/engine_bindings.cc).
  | { type: 'pageRows'; result: number; rows: Uint32Array }
  // Each for the rows [first, first + count): the client asks part by part.
  | { type: 'searchRows'; result: number; query: string; first: number; count: number; times: ShownTimes | null }
  | { type: 'keyTotals'; result: number; keyCol: number; valueCol: number; first: number; count: number }
  | { type: 'rowsWithKeys'; result: number; keyCol: number; keys: string[]; first: number; count: number }
  | { type: 'columnTotals'; result: number; cols: number[]; rows: Uint32Array | null; summaryRow: string; first: number; count: number };

export type RequestMessage = EngineRequest & { id: number; version: number };

/** open's answer: the engine's report id, its summary, and the files' names and total size. */
export interface OpenResult {
  report: number;
  summary: unknown;
  /** The first file's name. */
  fileName: string;
  /** Every file's name, in the order opened. */
  fileNames: string[];
  /** All files together, in bytes. */
  fileSize: number;
}

export interface ResultByType {
  init: { ok: true };
  open: OpenResult;
  openDemo: OpenResult;
  close: { ok: true };
  listRules: unknown;
  run: RawRuleResult;
  runCompare: RawRuleResult;
  sort: Uint32Array;
  /** The CSV the CLI writes, joined from parts in the worker. */
  exportCsv: Blob;
  /** The workbook's bytes (transferred). */
  renderXlsx: Uint8Array;
  release: { ok: true };
  setTimeFilter: { window: TimeWindow | null };
  setRuleConfig: { ok: true };
  /** "" when the value is valid, else the engine's one-line error. */
  checkRuleOption: string;
  timelineTracks: TimelineInfo;
  timelineShares: TimelineShares;
  timelineKernelGroups: { added: number };
  timelineKernelRangeGroups: { added: number };
  timelineWindow: TimelineWindowSlices;
  timelineRelated: TimelineRelated;
  timelineSelection: SelectionAnswer;
  /** null: the timeline does not draw that event. */
  timelineFindEvent: TimelineEvent | null;
  /** null: an event of no report table (an OSRT call, a PCCL stage, a projection). */
  timelineEventRow: EventRow | null;
  /** The result's row, null when it has none for the event. */
  resultRowOfEvent: number | null;
  eventsView: EventsViewResult;
  eventsViewEvent: TimelineEvent;
  /** null: the statistics range leaves the event out. */
  eventsViewRow: number | null;
  /** The same for one option of a rule. */
  checkOption: string;
  pageRows: RawRuleResult;
  /** One byte per row, 1 = match; null for a blank query. */
  searchRows: Uint8Array | null;
  keyTotals: KeyTotals;
  rowsWithKeys: Uint32Array;
  columnTotals: ColumnTotal[];
}

/** timelineSelection's answer: the selection's figures and its grouped events as a result (its id in `result.resultId`). */
export interface SelectionAnswer {
  stats: SelectionStats;
  result: RawRuleResult;
}

export type ResponseMessage =
  | { id: number; kind: 'result'; result: unknown }
  | { id: number; kind: 'error'; error: string }
  | { id: number; kind: 'progress'; loaded: number; total: number };

// The UI thread's side of the engine: one module worker, requests with ids,
// promises that resolve with the worker's answer. The UI never calls the
// engine directly.
import type { TimelineEvent, TimelineInfo, TimelineRelated, TimelineShares, TimelineWindowSlices } from './timeline_types';
import type { WireEventTable } from './bridge_schema.gen';
import {
  PROTOCOL_VERSION,
  type EngineRequest,
  type OpenResult,
  type ResponseMessage,
  type RuleConfig,
  type SelectionAnswer,
} from './protocol';
import { normalizeRules, normalizeSummary } from './normalize';
import type {
  ColumnTotal,
  EventRow,
  EventsViewResult,
  KeyTotals,
  RawRuleResult,
  ReportSummary,
  RuleDecl,
  ShownTimes,
  TimeWindow,
} from './types';

export interface Progress {
  loaded: number;
  total: number;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  onProgress?: (p: Progress) => void;
}

export interface OpenedReport {
  /** The engine's id of the report: every later call names it. */
  report: number;
  summary: ReportSummary;
}

function opened(r: OpenResult): OpenedReport {
  return { report: r.report, summary: normalizeSummary(r.summary, r.fileName, r.fileSize, r.fileNames) };
}

export class EngineClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private busyListeners = new Set<(pending: number) => void>();

  /** `engineUrl`: the engine's ES module, resolved against the page. */
  constructor(private readonly engineUrl: string) {}

  onBusyChange(fn: (pending: number) => void): () => void {
    this.busyListeners.add(fn);
    return () => this.busyListeners.delete(fn);
  }

  private notify(): void {
    for (const fn of this.busyListeners) fn(this.pending.size);
  }

  private start(): Worker {
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'asys-engine' });
    w.onmessage = (ev: MessageEvent<ResponseMessage>) => this.receive(ev.data);
    w.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      this.fail(`the engine worker failed: ${ev.message || 'could not start'}`);
    };
    w.onmessageerror = () => this.fail('the engine worker sent a message that could not be read');
    this.worker = w;
    this.post(w, { type: 'init', engineUrl: this.engineUrl });
    return w;
  }

  /** Rejects everything pending and drops the worker; the next request starts a new one. */
  private fail(message: string): void {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(new Error(message));
    this.notify();
  }

  private receive(msg: ResponseMessage): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.kind === 'progress') {
      p.onProgress?.({ loaded: msg.loaded, total: msg.total });
      return;
    }
    this.pending.delete(msg.id);
    if (msg.kind === 'error') p.reject(new Error(msg.error));
    else p.resolve(msg.result);
    this.notify();
  }

  private post(w: Worker, req: EngineRequest, onProgress?: (p: Progress) => void): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.notify();
      try {
        w.postMessage({ ...req, id, version: PROTOCOL_VERSION });
      } catch (e) {
        this.pending.delete(id);
        this.notify();
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  request(req: EngineRequest, onProgress?: (p: Progress) => void): Promise<unknown> {
    const w = this.worker ?? this.start();
    return this.post(w, req, onProgress);
  }

  /** Opens one report from one file, or from several (e.g. the rank traces of one job). */
  async open(files: File[], onProgress?: (p: Progress) => void): Promise<OpenedReport> {
    return opened((await this.request({ type: 'open', files }, onProgress)) as OpenResult);
  }

  async openDemo(url: string, fileName: string, onProgress?: (p: Progress) => void): Promise<OpenedReport> {
    return opened((await this.request({ type: 'openDemo', url, fileName }, onProgress)) as OpenResult);
  }

  /** Closes a report: the engine frees its tables and the worker its files. */
  async close(report: number): Promise<void> {
    await this.request({ type: 'close', report });
  }

  /** The rules, with their availability in `report` (0: none). */
  async listRules(report: number): Promise<RuleDecl[]> {
    return normalizeRules(await this.request({ type: 'listRules', report }));
  }

  /** A rule's result: answered whole up to `cellLimit` rows, else kept in the engine and paged (`paged`). */
  async run(report: number, rule: string, options: Record<string, string>, cellLimit?: number): Promise<RawRuleResult> {
    return (await this.request({ type: 'run', report, rule, options, cellLimit })) as RawRuleResult;
  }

  /** Rows of a paged result, in the order given. */
  async pageRows(result: number, rows: Uint32Array): Promise<RawRuleResult> {
    return (await this.request({ type: 'pageRows', result, rows })) as RawRuleResult;
  }

  // A paged result's questions, each for rows [first, first + count):
  // lib/paged_queries.ts asks part by part, so pages in view are answered between parts.

  /** The rows matching the search box's query, one byte per row of the range (null: a blank query). */
  async searchRows(result: number, query: string, first: number, count: number, times: ShownTimes | null = null): Promise<Uint8Array | null> {
    return (await this.request({ type: 'searchRows', result, query, first, count, times })) as Uint8Array | null;
  }

  /** The pie's data: `valueCol` (< 0: rows counted) summed per key of `keyCol`. */
  async keyTotals(result: number, keyCol: number, valueCol: number, first: number, count: number): Promise<KeyTotals> {
    return (await this.request({ type: 'keyTotals', result, keyCol, valueCol, first, count })) as KeyTotals;
  }

  /** The rows whose `keyCol` cell is one of `keys` (a pie slice's rows). */
  async rowsWithKeys(result: number, keyCol: number, keys: string[], first: number, count: number): Promise<Uint32Array> {
    return (await this.request({ type: 'rowsWithKeys', result, keyCol, keys, first, count })) as Uint32Array;
  }

  /** The sums of `cols` over `rows` (null: the range's rows), the summary row left out. */
  async columnTotals(
    result: number,
    cols: number[],
    rows: Uint32Array | null,
    summaryRow: string,
    first: number,
    count: number,
  ): Promise<ColumnTotal[]> {
    return (await this.request({ type: 'columnTotals', result, cols, rows, summaryRow, first, count })) as ColumnTotal[];
  }

  /** A compare rule on a base and a target report. */
  async runCompare(base: number, target: number, rule: string, options: Record<string, string>): Promise<RawRuleResult> {
    return (await this.request({ type: 'runCompare', base, target, rule, options })) as RawRuleResult;
  }

  /** The engine's row order of a result sorted by a column. */
  async sortOrder(result: number, column: number, descending: boolean): Promise<Uint32Array> {
    return (await this.request({ type: 'sort', result, column, descending })) as Uint32Array;
  }

  /** A result's CSV as the CLI writes it, as a Blob (made in parts: no one string). */
  async exportCsv(result: number): Promise<Blob> {
    return (await this.request({ type: 'exportCsv', result })) as Blob;
  }

  /** A report's timeline tracks (built in the engine on the first call). */
  async timelineTracks(report: number): Promise<TimelineInfo> {
    return (await this.request({ type: 'timelineTracks', report })) as TimelineInfo;
  }

  /** Every row's busy share inside [from, to) (absolute ns): the shares recomputed for the statistics range. */
  async timelineShares(report: number, from: bigint, to: bigint): Promise<TimelineShares> {
    return (await this.request({ type: 'timelineShares', report, from, to })) as TimelineShares;
  }

  /** Builds the rows by base name of these streams' kernels (kept: timelineTracks lists them after). */
  async timelineKernelGroups(report: number, tracks: number[]): Promise<{ added: number }> {
    return (await this.request({ type: 'timelineKernelGroups', report, tracks })) as { added: number };
  }
  /** Rows of these streams' kernels by HGTX range, built and kept (timelineTracks lists them after, groupedBy "hgtxRange"). */
  async timelineKernelRangeGroups(report: number, tracks: number[]): Promise<{ added: number }> {
    return (await this.request({ type: 'timelineKernelRangeGroups', report, tracks })) as { added: number };
  }

  /** The slices of `tracks` in [from, to) merged to `pixels` columns. */
  async timelineWindow(report: number, from: bigint, to: bigint, pixels: number, tracks: number[]): Promise<TimelineWindowSlices> {
    return (await this.request({ type: 'timelineWindow', report, from, to, pixels, tracks })) as TimelineWindowSlices;
  }

  /** An event (track, index in the track) and the events linked to it: API call <-> launched activities. */
  async timelineRelated(report: number, track: number, event: number): Promise<TimelineRelated> {
    return (await this.request({ type: 'timelineRelated', report, track, event })) as TimelineRelated;
  }

  /** A drag selection [from, to) (absolute ns): its figures, and its events grouped by kind and name as a result. */
  async timelineSelection(report: number, from: bigint, to: bigint, cellLimit?: number): Promise<SelectionAnswer> {
    return (await this.request({ type: 'timelineSelection', report, from, to, cellLimit })) as SelectionAnswer;
  }

  /** The timeline's event that is row `index` of report table `table` (null: not drawn). */
  async timelineFindEvent(report: number, table: WireEventTable, index: number): Promise<TimelineEvent | null> {
    return (await this.request({ type: 'timelineFindEvent', report, table, index })) as TimelineEvent | null;
  }

  /** A timeline event's report table and row (null: of no table). */
  async timelineEventRow(report: number, track: number, event: number): Promise<EventRow | null> {
    return (await this.request({ type: 'timelineEventRow', report, track, event })) as EventRow | null;
  }

  /** The first row of a result standing for row `index` of report table `table` (null: none). */
  async resultRowOfEvent(result: number, table: WireEventTable, index: number): Promise<number | null> {
    return (await this.request({ type: 'resultRowOfEvent', result, table, index })) as number | null;
  }

  /** Timeline row `track`'s Events view: a paged result over the report's statistics range (release it when done). */
  async eventsView(report: number, track: number): Promise<EventsViewResult> {
    return (await this.request({ type: 'eventsView', report, track })) as EventsViewResult;
  }

  /** The timeline event that row `row` of an Events view shows. */
  async eventsViewEvent(result: number, row: number): Promise<TimelineEvent> {
    return (await this.request({ type: 'eventsViewEvent', result, row })) as TimelineEvent;
  }

  /** The row of an Events view that shows event `event` of its timeline row (null: outside the statistics range). */
  async eventsViewRow(result: number, event: number): Promise<number | null> {
    return (await this.request({ type: 'eventsViewRow', result, event })) as number | null;
  }

  /** A result as the CLI's --format xlsx workbook (one sheet named `sheet`, the rule's name). */
  async renderXlsx(result: number, sheet: string): Promise<Uint8Array> {
    return (await this.request({ type: 'renderXlsx', result, sheet })) as Uint8Array;
  }

  /** Frees a result in the engine; later calls on its id fail. */
  async release(result: number): Promise<void> {
    await this.request({ type: 'release', result });
  }

  /** A report's resolved window in absolute ns (exact), or null when no filter is set. */
  async setTimeFilter(report: number, filterTime: string, filterHgtx: string): Promise<TimeWindow | null> {
    const r = (await this.request({ type: 'setTimeFilter', report, filterTime, filterHgtx })) as {
      window: TimeWindow | null;
    };
    return r.window;
  }

  /** The global rule options for every later run; rejects with the engine's line on a bad entry. */
  async setRuleConfig(config: RuleConfig): Promise<void> {
    await this.request({ type: 'setRuleConfig', config });
  }

  /** "" when `value` is a valid entry of global option `name`, else why not. */
  async checkRuleOption(name: string, value: string): Promise<string> {
    return (await this.request({ type: 'checkRuleOption', name, value })) as string;
  }

  /** "" when `value` is valid for option `name` of `rule`, else the CLI's error for it. */
  async checkOption(rule: string, name: string, value: string): Promise<string> {
    return (await this.request({ type: 'checkOption', rule, name, value })) as string;
  }

  dispose(): void {
    this.fail('closed');
  }
}

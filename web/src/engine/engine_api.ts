// The engine module's calls (wasm/engine_bindings.cc, docs/architecture.md) and
// the logic of the worker over them, kept free of worker globals so it can be
// tested with a stand-in engine.
import type { CellArray, ColumnTotal, KeyTotals, RawRuleResult, ShownTimes, TimeWindow } from './types';
import { WorkerfsPrefetch } from './workerfs_prefetch';

export interface EmscriptenFS {
  mkdir(path: string): void;
  mount(type: unknown, opts: { files?: File[]; blobs?: { name: string; data: Blob }[] }, mountpoint: string): void;
  unmount(mountpoint: string): void;
  rmdir(path: string): void;
  filesystems: Record<string, unknown>;
}

/** The bridge version this client speaks (wasm/engine_bindings.cc kApiVersion). */
export const ENGINE_API_VERSION = 10;

/** Every engine call answers one envelope: {ok: true, ...} or {ok: false, error}. */
export type Envelope = { ok: boolean; error?: string } & Record<string, unknown>;

/** The engine module's timeline calls; timeline_api.ts reads their answers. */
export interface TimelineEngine {
  timelineTracks(report: number): unknown;
  /** {tracks: [{share, contextShare}], groups: [share]}: the shares inside [from, to) (decimal ns). */
  timelineShares(report: number, from: string, to: string): unknown;
  /** {added}: builds the rows by base name of these tracks' kernels. */
  timelineKernelGroups(report: number, ids: number[]): unknown;
  timelineKernelRangeGroups(report: number, ids: number[]): unknown;
  timelineDeviceRows(report: number): unknown;
  /** {added}: builds the graph rows (a row per graph exec launched on a stream). */
  timelineGraphRows(report: number): unknown;
  timelineWindow(report: number, from: string, to: string, pixels: number, ids: number[]): unknown;
  timelineRelated(report: number, track: number, event: number): unknown;
  /** {event} (timelineRelated's `selected` shape, or null): the event that is row `index` of report table `table`. */
  timelineFindEvent(report: number, table: string, index: number): unknown;
  /** {table, index}: the report table and row of a timeline event (table "none": of no table). */
  timelineEventRow(report: number, track: number, event: number): unknown;
  /**
   * {selection, ...runPaged's answer}: a drag selection's figures over [from, to) (decimal ns) and its
   * events grouped by kind and name as a result (whole up to `cellLimit` rows, else paged).
   */
  timelineSelection(report: number, from: string, to: string, cellLimit: number): unknown;
  /** A timeline row's Events view: runPaged's paged answer, plus `kind` and `track`. */
  eventsView(report: number, track: number): unknown;
  /** {event}: the timeline event row `row` of an Events view shows. */
  eventsViewEvent(result: number, row: number): unknown;
  /** {row} (null: left out by the statistics range): the row of an Events view that shows event `event` of its row. */
  eventsViewRow(result: number, event: number): unknown;
}

/** The engine module: handles for reports and results (docs/architecture.md, "The WebAssembly API"). */
export interface AsysEngine extends TimelineEngine {
  FS: EmscriptenFS;
  apiVersion(): number;
  /** Files as one report: {report, summary}. */
  open(paths: string[]): Envelope;
  close(report: number): Envelope;
  /** {rules}, with each rule's availability in `report` (0: none). */
  listRules(report: number): Envelope;
  /** --filter-time / --filter-hgtx for the report's later runs: {window: [BigInt, BigInt] | null}. */
  setTimeFilter(report: number, filterTime: string, filterHgtx: string): Envelope;
  /** The global rule options for later runs, `{"name": [entries]}` as JSON. */
  setRuleConfig(configJson: string): Envelope;
  /** Checks one entry of a global option without applying it. */
  checkRuleOption(name: string, value: string): Envelope;
  /** Checks one value of one rule option with the CLI's parser, without running the rule. */
  checkOption(rule: string, name: string, value: string): Envelope;
  /** {result, columns, rowCount, textPool, cells, spans, warnings, files}. */
  run(report: number, rule: string, optionsJson: string): Envelope;
  runCompare(base: number, target: number, rule: string, optionsJson: string): Envelope;
  /** run, answered whole up to `cellLimit` rows (paged: false), else without cells (paged: true). */
  runPaged(report: number, rule: string, optionsJson: string, cellLimit: number): Envelope;
  /** {columns, cells, rowCount, spans, textPool}: rows `rows` of a result, with their own text pool. */
  pageRows(result: number, rows: Uint32Array): Envelope;
  /** {row} (null: none): the first row of a result whose event reference is row `index` of report table `table`. */
  resultRowOfEvent(result: number, table: string, index: number): Envelope;
  // The questions of a paged result answer for rows [first, first + count):
  // the viewer asks part by part, and pages the rows in view in between.
  /** {mask}: one byte per row of the range, 1 where a cell contains the query as shown; null for a blank query. */
  searchRows(result: number, query: string, first: number, count: number, times: ShownTimes | null): Envelope;
  /** {keys, values}: column valueCol (< 0: rows counted) summed per key of keyCol. */
  keyTotals(result: number, keyCol: number, valueCol: number, first: number, count: number): Envelope;
  /** {rows}: the rows whose key cell is one of `keys`. */
  rowsWithKeys(result: number, keyCol: number, keys: string[], first: number, count: number): Envelope;
  /** {totals}: sums of `cols` over `rows` (null: the range's rows), the summary row left out. */
  columnTotals(result: number, cols: number[], rows: Uint32Array | null, summaryRow: string, first: number, count: number): Envelope;
  /** {order}: the result's rows sorted by a column, in the engine. */
  sortOrder(result: number, column: number, descending: boolean): Envelope;
  page(result: number, offset: number, count: number): Envelope;
  /** {text}: the result as the CLI writes it. */
  render(result: number, format: string): Envelope;
  /** {bytes}: rows [first, first + count) as the CLI's CSV (the header with the first part). */
  renderCsvRows(result: number, first: number, count: number): Envelope;
  /** {bytes}: the result as the CLI's --format xlsx workbook, one sheet named `sheet`. */
  renderXlsx(result: number, sheet: string): Envelope;
  release(result: number): Envelope;
  HEAPU8?: Uint8Array;
  wasmMemory?: WebAssembly.Memory;
}

/** Throws unless the module speaks this client's bridge version. */
export function checkEngineVersion(engine: Partial<AsysEngine>): void {
  const version = typeof engine.apiVersion === 'function' ? engine.apiVersion() : 1;
  if (version !== ENGINE_API_VERSION) {
    throw new Error(`the WebAssembly engine speaks bridge version ${version}, this page ${ENGINE_API_VERSION}: reload the page`);
  }
}

/** An envelope's fields; throws the engine's one-line error. */
export function unwrap(v: unknown, call: string): Record<string, unknown> {
  if (!v || typeof v !== 'object') throw new Error(`${call}: no answer from the engine`);
  const o = v as Envelope;
  if (o.ok !== true) throw new Error(String(o.error || `${call} failed`));
  return o;
}

/** A readable message from anything an engine call can throw. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  if (typeof e === 'number') return `engine error (C++ exception ${e})`;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

function isBufferShared(a: ArrayBufferView, engine: AsysEngine): boolean {
  const heap = engine.HEAPU8?.buffer ?? engine.wasmMemory?.buffer;
  if (heap && a.buffer === heap) return true;
  return a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength;
}

function plainCells(v: unknown, engine: AsysEngine): CellArray {
  let a: CellArray;
  if (v instanceof Float64Array || v instanceof Uint32Array || v instanceof BigInt64Array) a = v;
  else if (v instanceof Float32Array || v instanceof Int32Array || Array.isArray(v)) a = Float64Array.from(v as ArrayLike<number>);
  else throw new Error('run: a result column is not a typed array');
  // Views into the wasm heap must be copied before the heap moves or the buffer is transferred.
  if (isBufferShared(a, engine)) a = a.slice();
  return a;
}

function getField(o: unknown, key: string): unknown {
  if (!o || typeof o !== 'object') return undefined;
  return (o as Record<string, unknown>)[key];
}

const utf8 = new TextDecoder('utf-8');

/**
 * The text pool as one NUL-separated string. The engine sends the UTF-8 bytes
 * of every text followed by a NUL (or, per the contract, a string of texts
 * joined by NUL); a final NUL is a terminator, not an extra empty text.
 */
export function decodeTextPool(v: unknown): string {
  let s: string;
  if (v instanceof Uint8Array) s = utf8.decode(v);
  else if (v instanceof ArrayBuffer) s = utf8.decode(new Uint8Array(v));
  else if (typeof v === 'string') return v;
  else s = '';
  return s.endsWith('\0') ? s.slice(0, -1) : s;
}

/** sortOrder's answer as a plain, transferable Uint32Array. */
export function takeSortOrder(v: unknown, engine: AsysEngine, rowCount?: number): Uint32Array {
  const order = unwrap(v, 'sortOrder').order;
  if (!(order instanceof Uint32Array)) throw new Error('sortOrder: no row order from the engine');
  const own = isBufferShared(order, engine) ? order.slice() : order;
  if (rowCount !== undefined && own.length !== rowCount) {
    throw new Error(`sortOrder: ${own.length} rows, the result has ${rowCount}`);
  }
  return own;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** setTimeFilter's answer: the resolved window, or null for none. */
export function takeTimeWindow(v: unknown): TimeWindow | null {
  const w = unwrap(v, 'setTimeFilter').window;
  if (!Array.isArray(w) || w.length !== 2) return null;
  const bound = (x: unknown) => {
    const n = typeof x === 'bigint' ? x : BigInt(String(x));
    return n === INT64_MIN || n === INT64_MAX ? null : n;
  };
  return [bound(w[0]), bound(w[1])];
}

/** setRuleConfig's / checkRuleOption's / checkOption's answer: "" when ok, else the engine's error line. */
export function okOrError(v: unknown, what: string): string {
  try {
    unwrap(v, what);
    return '';
  } catch (e) {
    return errorText(e);
  }
}

/** Rows a CSV part holds: a trace of ten million rows is exported in parts, never as one string. */
export const CSV_PART_ROWS = 1 << 16;

/** A result's CSV as the CLI writes it, a Blob joined from parts of CSV_PART_ROWS rows. */
export function exportCsvBlob(engine: Pick<AsysEngine, 'renderCsvRows'>, result: number, rowCount: number): Blob {
  const parts: Uint8Array[] = [];
  for (let first = 0; first === 0 || first < rowCount; first += CSV_PART_ROWS) {
    const bytes = unwrap(engine.renderCsvRows(result, first, CSV_PART_ROWS), 'renderCsvRows').bytes;
    if (!(bytes instanceof Uint8Array)) throw new Error('renderCsvRows: the answer has no bytes');
    parts.push(bytes);
  }
  return new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' });
}

/** renderXlsx's answer: the workbook's bytes; throws the engine's error. */
export function takeWorkbook(v: unknown): Uint8Array {
  const bytes = unwrap(v, 'renderXlsx').bytes;
  if (!(bytes instanceof Uint8Array)) throw new Error('renderXlsx: the answer has no bytes');
  return bytes;
}

/** The little-endian bytes of an int64 column as a BigInt64Array of its own (transferable). */
function int64Array(v: unknown, rowCount: number, what: string): BigInt64Array {
  if (!(v instanceof Uint8Array) || v.byteLength !== rowCount * 8) {
    throw new Error(`run: ${what} is not ${rowCount} int64 values`);
  }
  const own = v.byteOffset % 8 === 0 && v.buffer.byteLength === v.byteLength ? v : v.slice();
  return new BigInt64Array(own.buffer, own.byteOffset, rowCount);
}

/** Converts run's (runCompare's) answer into plain, transferable data; throws the engine's error. */
export function takeRunResult(raw: unknown, engine: AsysEngine): RawRuleResult {
  const o = unwrap(raw, 'run');
  const columnsRaw = o.columns;
  const columns = (Array.isArray(columnsRaw) ? columnsRaw : []).map((c) => ({
    name: String(getField(c, 'name') ?? ''),
    unit: String(getField(c, 'unit') ?? ''),
    kind: getField(c, 'kind') as string | number,
    header: getField(c, 'header') === undefined ? undefined : String(getField(c, 'header')),
  }));
  const rowCount = Number(o.rowCount ?? 0);
  const cellsList: unknown[] = Array.isArray(o.cells) ? o.cells : [];
  // Integer cells come as int64 bytes (exact past 2^53), the others as typed arrays.
  const cells = cellsList.map((c, i) =>
    String(columns[i]?.kind).toLowerCase() === 'int' && c instanceof Uint8Array
      ? int64Array(c, rowCount, `column ${columns[i].header ?? columns[i].name}`)
      : plainCells(c, engine),
  );
  const spansRaw = o.spans;
  const spans = (Array.isArray(spansRaw) ? spansRaw : []).map((s) => ({
    name: String(getField(s, 'name') ?? ''),
    start: int64Array(getField(s, 'start'), rowCount, 'a row span'),
    end: int64Array(getField(s, 'end'), rowCount, 'a row span'),
  }));
  const eventsRaw = o.events;
  const events = (Array.isArray(eventsRaw) ? eventsRaw : []).map((e) => ({
    name: String(getField(e, 'name') ?? ''),
    table: rowArray(getField(e, 'table'), Uint8Array, rowCount, 'a row event', engine),
    index: rowArray(getField(e, 'index'), Uint32Array, rowCount, 'a row event', engine),
  }));
  const warnings = (Array.isArray(o.warnings) ? o.warnings : []).map((w) => String(w));
  const files = (Array.isArray(o.files) ? o.files : []).map((f) => ({
    name: String(getField(f, 'name') ?? ''),
    text: String(getField(f, 'text') ?? ''),
  }));
  const resultId = typeof o.result === 'number' ? o.result : undefined;
  return { columns, rowCount, textPool: decodeTextPool(o.textPool), cells, spans, events, warnings, files, resultId };
}

/** A per-row typed array of an answer, `rowCount` long, as one of its own. */
function rowArray<T extends Uint8Array | Uint32Array>(v: unknown, type: { new (...a: never[]): T }, rowCount: number, what: string, engine: AsysEngine): T {
  const a = own(v, type, what, engine);
  if (a.length !== rowCount) throw new Error(`run: ${what} is not ${rowCount} values`);
  return a;
}

/** A typed array from an engine answer as one of its own (the heap's may move). */
function own<T extends Uint8Array | Uint32Array | Float64Array>(v: unknown, type: { new (...a: never[]): T }, what: string, engine: AsysEngine): T {
  if (!(v instanceof type)) throw new Error(`${what}: the engine's answer is not a ${type.name}`);
  return (isBufferShared(v, engine) ? v.slice() : v) as T;
}

/** runPaged's answer: run's, or a paged result's columns, rows, span names and notes. */
export function takePagedRun(raw: unknown, engine: AsysEngine): RawRuleResult {
  const o = unwrap(raw, 'run');
  if (o.paged !== true) return takeRunResult(raw, engine);
  const shell = takeRunResult({ ...o, cells: [], spans: [], events: [], textPool: '' }, engine);
  const names = Array.isArray(o.spanNames) ? o.spanNames.map((n) => String(n)) : [];
  const eventNames = Array.isArray(o.eventNames) ? o.eventNames.map((n) => String(n)) : [];
  return { ...shell, paged: true, spanNames: names, eventNames };
}

/** pageRows' answer: the rows' cells and spans, their texts indexing the page's own pool. */
export function takePage(raw: unknown, engine: AsysEngine): RawRuleResult {
  return takeRunResult(raw, engine);
}

export function takeSearchMask(raw: unknown, engine: AsysEngine): Uint8Array | null {
  const mask = unwrap(raw, 'searchRows').mask;
  return mask === null || mask === undefined ? null : own(mask, Uint8Array, 'searchRows', engine);
}

export function takeKeyTotals(raw: unknown, engine: AsysEngine): KeyTotals {
  const o = unwrap(raw, 'keyTotals');
  const values = own(o.values, Float64Array, 'keyTotals', engine);
  const text = decodeTextPool(o.keys);
  const keys = values.length === 0 ? [] : text.split('\0');
  if (keys.length !== values.length) throw new Error(`keyTotals: ${keys.length} keys for ${values.length} values`);
  return { keys, values };
}

export function takeRowList(raw: unknown, engine: AsysEngine, call: string): Uint32Array {
  return own(unwrap(raw, call).rows, Uint32Array, call, engine);
}

export function takeColumnTotals(raw: unknown): ColumnTotal[] {
  const totals = unwrap(raw, 'columnTotals').totals;
  if (!Array.isArray(totals)) throw new Error('columnTotals: no totals in the answer');
  return totals.map((t) => {
    const col = Number(getField(t, 'col'));
    const digits = getField(t, 'digits');
    const value = getField(t, 'value');
    if (typeof digits === 'string') return { col, digits };
    if (typeof value === 'number') return { col, value };
    throw new Error('columnTotals: a total without its value');
  });
}

/** Whether an engine error means the engine's memory ran out. */
export function isOutOfMemory(message: string): boolean {
  return /bad_alloc|out of memory|Cannot enlarge memory|Array buffer allocation failed|WebAssembly\.Memory/i.test(message);
}

/**
 * The one line the viewer shows when a rule runs out of memory: the
 * browser's WebAssembly engine may grow to 2 GB (wasm/CMakeLists.txt says
 * why not 4), the command line has no such limit. The engine stays usable (what it loaded for the failed rule is
 * freed); docs/big-reports.md gives the ceiling.
 */
/** A file name as a shell word (single-quoted when it needs it). */
function shellQuoted(fileName: string): string {
  return /[\s'"$]/.test(fileName) ? `'${fileName.replace(/'/g, "'\\''")}'` : fileName;
}

export function outOfMemoryMessage(fileName: string, rule?: string): string {
  const file = shellQuoted(fileName);
  const what = rule ? `${rule} on ${fileName}` : `opening ${fileName}`;
  return `Out of memory: ${what} needs more than the 2 GB a browser tab's engine can use; the command line has no such limit: asys stats -r ${rule ?? 'RULE'} ${file}`;
}

/** The same for the timeline: its events are in the trace rules on the command line. */
export function timelineOutOfMemoryMessage(fileName: string): string {
  const file = shellQuoted(fileName);
  return `Out of memory: the timeline of ${fileName} needs more than the 2 GB a browser tab's engine can use; its events are in the trace rules on the command line: asys stats -r hggc_ppu_trace,hggc_api_trace ${file}`;
}

/** Removes the worker's mount directories (/reports/N/...) from the engine's paths and messages. */
export function withoutMountDirs(text: string): string {
  return text.replace(/(^|[\s"'(])\/reports\/\d+\/(?:workerfs\/)?/g, '$1');
}

/** `name`, or "stem (2).ext", "stem (3).ext", ... when a file of that name is already there. */
function uniqueName(name: string, taken: Set<string>): string {
  let n = name || 'report';
  if (taken.has(n)) {
    const dot = n.indexOf('.', 1);
    const stem = dot > 0 ? n.slice(0, dot) : n;
    const ext = dot > 0 ? n.slice(dot) : '';
    for (let i = 2; taken.has(n); i++) n = `${stem} (${i})${ext}`;
  }
  taken.add(n);
  return n;
}

interface OpenEntry {
  dir: string;
  /** WORKERFS mount points, unmounted on release. */
  mounts: string[];
  /** The files' readers ahead (where the page is cross-origin isolated), stopped on release. */
  readers: { stop(): void }[];
  /** Directories made for this open, removed last. */
  dirs: string[];
}

/** What `ReportMounts.open` answers: the engine's report id and its summary. */
export interface MountedReport {
  report: number;
  summary: unknown;
}

/**
 * Opens the files of one report under a directory of their own,
 * /reports/N, mounted with WORKERFS: nothing is copied, whatever the size.
 * Where the page is cross-origin isolated, a reader worker reads each large
 * file ahead of the engine (workerfs_prefetch.ts).
 * The engine reads an SQLite file through its report VFS, which reads the
 * File ahead in blocks of up to 32 MiB (one FileReaderSync call each) into
 * a bounded cache (core/report/block_vfs.h), so the engine's memory holds
 * the columns it loads, not the report; JSON and gzip traces are streamed in
 * 1 MiB reads. Several files given together are one report (several Kineto
 * rank traces become one multi-process report). Several reports stay open at
 * once, each with its engine id; a report's files are released when it is
 * closed, or right away when its open fails.
 */
export class ReportMounts {
  private next = 1;
  private readonly open_ = new Map<number, OpenEntry>();
  /** Reading files ahead in a second worker; null where it cannot, undefined before the first mount. */
  private prefetch: WorkerfsPrefetch | null | undefined;

  constructor(private readonly engine: AsysEngine) {}

  open(files: File | File[], onProgress?: (loaded: number, total: number) => void): MountedReport {
    const list = Array.isArray(files) ? files : [files];
    if (list.length === 0) throw new Error('no file to open');
    const FS = this.engine.FS;
    const dir = `/reports/${this.next++}`;
    try {
      FS.mkdir('/reports');
    } catch {
      /* exists */
    }
    FS.mkdir(dir);
    const entry: OpenEntry = { dir, mounts: [], readers: [], dirs: [dir] };
    try {
      const paths = this.place(list, entry);
      const total = list.reduce((sum, f) => sum + f.size, 0);
      onProgress?.(total, total);
      const answer = unwrap(this.engine.open(paths), 'open');
      const report = Number(answer.report);
      this.open_.set(report, entry);
      return { report, summary: answer.summary };
    } catch (e) {
      this.release(entry);
      throw e;
    }
  }

  /** Closes a report in the engine and releases its files. */
  close(report: number): void {
    unwrap(this.engine.close(report), 'close');
    const entry = this.open_.get(report);
    this.open_.delete(report);
    if (entry) this.release(entry);
  }

  /** Mounts every file under entry.dir; returns their paths in the order given. */
  private place(files: File[], entry: OpenEntry): string[] {
    const FS = this.engine.FS;
    const { dir } = entry;
    const WORKERFS = FS.filesystems?.WORKERFS;
    if (!WORKERFS) throw new Error('the engine was built without WORKERFS (-lworkerfs.js)');
    const taken = new Set<string>();
    const names = files.map((f) => uniqueName(f.name, taken));
    // Files under their own names; a renamed duplicate as a named blob.
    const same = files.filter((f, i) => names[i] === f.name);
    const renamed = files.map((f, i) => ({ name: names[i], data: f as Blob })).filter((b, i) => b.name !== files[i].name);
    const opts: { files?: File[]; blobs?: { name: string; data: Blob }[] } = { files: same };
    if (renamed.length > 0) opts.blobs = renamed;
    FS.mount(WORKERFS, opts, dir);
    entry.mounts.push(dir);
    if (this.prefetch === undefined) this.prefetch = WorkerfsPrefetch.install(WORKERFS);
    if (this.prefetch) for (const f of files) entry.readers.push(this.prefetch.start(f));
    return names.map((n) => `${dir}/${n}`);
  }

  private release(entry: OpenEntry): void {
    const FS = this.engine.FS;
    const attempt = (step: () => void) => {
      try {
        step();
      } catch {
        /* still in use by the engine: leave it */
      }
    };
    for (const r of entry.readers) attempt(() => r.stop());
    for (const m of entry.mounts) attempt(() => FS.unmount(m));
    for (const d of [...entry.dirs].reverse()) attempt(() => FS.rmdir(d));
  }
}

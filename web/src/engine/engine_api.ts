// The engine module's calls (wasm/engine_bindings.cc, docs/architecture.md) and
// the logic of the worker over them, kept free of worker globals so it can be
// tested with a stand-in engine.
import type { CellArray, RawRuleResult } from './types';
import { WorkerfsPrefetch } from './workerfs_prefetch';

export interface EmscriptenFS {
  mkdir(path: string): void;
  mount(type: unknown, opts: { files?: File[]; blobs?: { name: string; data: Blob }[] }, mountpoint: string): void;
  unmount(mountpoint: string): void;
  rmdir(path: string): void;
  filesystems: Record<string, unknown>;
}

export interface AsysEngine {
  FS: EmscriptenFS;
  openReport(path: string): string;
  /** Several files as one report (newer engines): several Kineto rank traces, one multi-process report. */
  openReports?(paths: string[]): string;
  listRules(): string;
  runRule(rule: string, optionsJson: string): unknown;
  renderRule(rule: string, optionsJson: string, format: string): unknown;
  /** Row order of the last runRule result sorted by a column (newer engines). */
  sortOrder?(column: number, descending: boolean): unknown;
  /** --filter-time / --filter-hgtx for later runs (newer engines). */
  setTimeFilter?(filterTime: string, filterHgtx: string): string;
  /** The global rule options for later runs, `{"name": [entries]}` (newer engines). */
  setRuleConfig?(configJson: string): string;
  /** Checks one entry of a global option without applying it (newer engines). */
  checkRuleOption?(name: string, value: string): string;
  HEAPU8?: Uint8Array;
  wasmMemory?: WebAssembly.Memory;
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

/** Parses the engine's `{"ok":..,"error":..}` JSON strings; throws the error text. */
export function parseEngineJson(text: unknown, call: string): Record<string, unknown> | unknown[] {
  if (typeof text !== 'string') throw new Error(`${call}: the engine returned ${typeof text}, not JSON text`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // A plain-text line is an error message.
    throw new Error(text.trim() || `${call}: empty answer from the engine`);
  }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if (o.ok === false) throw new Error(String(o.error || `${call} failed`));
  }
  return v as Record<string, unknown> | unknown[];
}

function isBufferShared(a: ArrayBufferView, engine: AsysEngine): boolean {
  const heap = engine.HEAPU8?.buffer ?? engine.wasmMemory?.buffer;
  if (heap && a.buffer === heap) return true;
  return a.byteOffset !== 0 || a.byteLength !== a.buffer.byteLength;
}

function plainCells(v: unknown, engine: AsysEngine): CellArray {
  let a: CellArray;
  if (v instanceof Float64Array || v instanceof Uint32Array) a = v;
  else if (v instanceof Float32Array || v instanceof Int32Array || Array.isArray(v)) a = Float64Array.from(v as ArrayLike<number>);
  else throw new Error('runRule: a result column is not a typed array');
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
  if (!(v instanceof Uint32Array)) throw new Error('sortOrder: no row order from the engine');
  const order = isBufferShared(v, engine) ? v.slice() : v;
  if (rowCount !== undefined && order.length !== rowCount) {
    throw new Error(`sortOrder: ${order.length} rows, the result has ${rowCount}`);
  }
  return order;
}

/** A time window in absolute ns; null for an open side (INT64_MIN / INT64_MAX). */
export type TimeWindow = [number | null, number | null];

/** setTimeFilter's answer: the resolved window, or null for none. */
export function takeTimeWindow(v: unknown): TimeWindow | null {
  const o = parseEngineJson(v, 'setTimeFilter');
  const w = Array.isArray(o) ? null : o.window;
  if (!Array.isArray(w) || w.length !== 2) return null;
  const bound = (x: unknown) => {
    const n = Number(x);
    return Number.isFinite(n) && Math.abs(n) < 9e18 ? n : null;
  };
  return [bound(w[0]), bound(w[1])];
}

/** setRuleConfig's / checkRuleOption's answer: "" when ok, else the engine's error line. */
export function okOrError(v: unknown, what: string): string {
  try {
    parseEngineJson(v, what);
    return '';
  } catch (e) {
    return errorText(e);
  }
}

/** renderRule's answer: `{"ok":true,"text":...}` (or the bare text); throws the engine's error. */
export function takeRenderedText(v: unknown): string {
  if (typeof v !== 'string') throw new Error('renderRule: no text from the engine');
  if (!v.startsWith('{')) return v;
  const o = parseEngineJson(v, 'renderRule');
  if (Array.isArray(o) || typeof o.text !== 'string') throw new Error('renderRule: the answer has no text');
  return o.text;
}

/** The little-endian bytes of an int64 column as a BigInt64Array of its own (transferable). */
function int64Array(v: unknown, rowCount: number): BigInt64Array {
  if (!(v instanceof Uint8Array) || v.byteLength !== rowCount * 8) {
    throw new Error(`runRule: a row span column is not ${rowCount} int64 values`);
  }
  const own = v.byteOffset % 8 === 0 && v.buffer.byteLength === v.byteLength ? v : v.slice();
  return new BigInt64Array(own.buffer, own.byteOffset, rowCount);
}

/** Converts runRule's answer into plain, transferable data; throws the engine's error. */
export function takeRunResult(raw: unknown, engine: AsysEngine): RawRuleResult {
  try {
    if (typeof raw === 'string') raw = parseEngineJson(raw, 'runRule');
    if (!raw || typeof raw !== 'object') throw new Error('runRule: no result from the engine');
    if (getField(raw, 'ok') === false) throw new Error(String(getField(raw, 'error') || 'runRule failed'));
    const columnsRaw = getField(raw, 'columns');
    const columns = (Array.isArray(columnsRaw) ? columnsRaw : []).map((c) => ({
      name: String(getField(c, 'name') ?? ''),
      unit: String(getField(c, 'unit') ?? ''),
      kind: getField(c, 'kind') as string | number,
      header: getField(c, 'header') === undefined ? undefined : String(getField(c, 'header')),
    }));
    const cellsRaw = getField(raw, 'cells');
    const cellsList: unknown[] = Array.isArray(cellsRaw) ? cellsRaw : [];
    const cells = cellsList.map((c) => plainCells(c, engine));
    const textPool = decodeTextPool(getField(raw, 'textPool'));
    const rowCount = Number(getField(raw, 'rowCount') ?? (cells[0]?.length ?? 0));
    const spansRaw = getField(raw, 'spans');
    const spans = (Array.isArray(spansRaw) ? spansRaw : []).map((s) => ({
      name: String(getField(s, 'name') ?? ''),
      start: int64Array(getField(s, 'start'), rowCount),
      end: int64Array(getField(s, 'end'), rowCount),
    }));
    const warningsRaw = getField(raw, 'warnings');
    const warnings = (Array.isArray(warningsRaw) ? warningsRaw : []).map((w) => String(w));
    return { columns, rowCount, textPool, cells, spans, warnings };
  } finally {
    const del = getField(raw, 'delete');
    if (typeof del === 'function') {
      try {
        (del as () => void).call(raw);
      } catch {
        /* already deleted */
      }
    }
  }
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
export function outOfMemoryMessage(fileName: string, rule?: string): string {
  const file = /[\s'"$]/.test(fileName) ? `'${fileName.replace(/'/g, "'\\''")}'` : fileName;
  const what = rule ? `${rule} on ${fileName}` : `opening ${fileName}`;
  return `Out of memory: ${what} needs more than the 2 GB a browser tab's engine can use; the command line has no such limit: asys stats -r ${rule ?? 'RULE'} ${file}`;
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

/**
 * Opens the files of one report under a directory of their own,
 * /reports/N, mounted with WORKERFS: nothing is copied, whatever the size.
 * Where the page is cross-origin isolated, a reader worker reads each large
 * file ahead of the engine (workerfs_prefetch.ts).
 * The engine reads an SQLite file through its report VFS, which reads the
 * File ahead in blocks of up to 32 MiB (one FileReaderSync call each) into
 * a bounded cache (core/report/block_vfs.h), so the engine's memory holds
 * the columns it loads, not the report; JSON and gzip traces are streamed in
 * 1 MiB reads. One file opens with `openReport`, several with `openReports`
 * (one report: several Kineto rank traces become one multi-process report).
 * The old report's files are released once a newer one opened; the engine
 * keeps its open report when a new open fails, and so do the mounts.
 */
export class ReportMounts {
  private next = 1;
  private current: OpenEntry | null = null;
  /** Reading files ahead in a second worker; null where it cannot, undefined before the first mount. */
  private prefetch: WorkerfsPrefetch | null | undefined;

  constructor(private readonly engine: AsysEngine) {}

  open(files: File | File[], onProgress?: (loaded: number, total: number) => void): unknown {
    const list = Array.isArray(files) ? files : [files];
    if (list.length === 0) throw new Error('no file to open');
    const several = list.length > 1;
    if (several && typeof this.engine.openReports !== 'function') {
      throw new Error('this engine opens one file at a time (no openReports); open the files one by one');
    }
    const FS = this.engine.FS;
    const dir = `/reports/${this.next++}`;
    try {
      FS.mkdir('/reports');
    } catch {
      /* exists */
    }
    FS.mkdir(dir);
    const entry: OpenEntry = { dir, mounts: [], readers: [], dirs: [dir] };
    let summary: unknown;
    try {
      const paths = this.place(list, entry);
      const total = list.reduce((sum, f) => sum + f.size, 0);
      onProgress?.(total, total);
      const answer = parseEngineJson(
        several ? this.engine.openReports!(paths) : this.engine.openReport(paths[0]),
        several ? 'openReports' : 'openReport',
      );
      summary = Array.isArray(answer) ? answer : (answer.summary ?? answer);
    } catch (e) {
      this.release(entry);
      throw e;
    }
    const old = this.current;
    this.current = entry;
    if (old) this.release(old);
    return summary;
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

// The engine module's calls (wasm/engine_bindings.cc, docs/architecture.md) and
// the logic of the worker over them, kept free of worker globals so it can be
// tested with a stand-in engine.
import type { CellArray, RawRuleResult } from './types';

export interface EmscriptenFS {
  mkdir(path: string): void;
  open?(path: string, flags: string): unknown;
  write?(stream: unknown, buffer: Uint8Array, offset: number, length: number, position: number): number;
  close?(stream: unknown): void;
  unlink?(path: string): void;
  mount(type: unknown, opts: { files?: File[]; blobs?: { name: string; data: Blob }[] }, mountpoint: string): void;
  unmount(mountpoint: string): void;
  rmdir(path: string): void;
  filesystems: Record<string, unknown>;
}

export interface AsysEngine {
  FS: EmscriptenFS;
  openReport(path: string): string;
  listRules(): string;
  runRule(rule: string, optionsJson: string): unknown;
  renderRule(rule: string, optionsJson: string, format: string): unknown;
  /** Row order of the last runRule result sorted by a column (newer engines). */
  sortOrder?(column: number, descending: boolean): unknown;
  /** --filter-time / --filter-hgtx for later runs (newer engines). */
  setTimeFilter?(filterTime: string, filterHgtx: string): string;
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

/** renderRule's answer: `{"ok":true,"text":...}` (or the bare text); throws the engine's error. */
export function takeRenderedText(v: unknown): string {
  if (typeof v !== 'string') throw new Error('renderRule: no text from the engine');
  if (!v.startsWith('{')) return v;
  const o = parseEngineJson(v, 'renderRule');
  if (Array.isArray(o) || typeof o.text !== 'string') throw new Error('renderRule: the answer has no text');
  return o.text;
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
    return { columns, rowCount, textPool, cells };
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

/** Files up to this size are copied into the engine's memory before opening. */
export const COPY_LIMIT = 1 << 30;
const COPY_CHUNK = 16 << 20;

type ReaderSync = { readAsArrayBuffer(blob: Blob): ArrayBuffer };

/**
 * Opens each report under its own directory. A file up to COPY_LIMIT is copied
 * into the engine's memory file system in 16 MB slices (with progress):
 * SQLite then reads pages at memory speed, where WORKERFS costs one
 * synchronous FileReader call per 4 KB page (28 s instead of 4 s on a
 * 1-million-row report). Larger files are mounted with WORKERFS, so they
 * need no memory of their own. The old report is released once a newer one
 * opened; the engine keeps its open report when a new file fails.
 */
export class ReportMounts {
  private next = 1;
  private current: { dir: string; path: string; mounted: boolean } | null = null;

  constructor(private readonly engine: AsysEngine) {}

  open(file: File, onProgress?: (loaded: number, total: number) => void): unknown {
    const FS = this.engine.FS;
    const dir = `/reports/${this.next++}`;
    try {
      FS.mkdir('/reports');
    } catch {
      /* exists */
    }
    FS.mkdir(dir);
    const path = `${dir}/${file.name}`;
    const ReaderSync = (globalThis as { FileReaderSync?: new () => ReaderSync }).FileReaderSync;
    const copy = file.size <= COPY_LIMIT && ReaderSync !== undefined && FS.open !== undefined;
    const entry = { dir, path, mounted: !copy };
    if (copy) {
      const reader = new ReaderSync!();
      const stream = FS.open!(path, 'w');
      try {
        for (let at = 0; at < file.size; at += COPY_CHUNK) {
          const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(at, at + COPY_CHUNK)));
          FS.write!(stream, bytes, 0, bytes.length, at);
          onProgress?.(at + bytes.length, file.size);
        }
      } finally {
        FS.close!(stream);
      }
    } else {
      const WORKERFS = FS.filesystems?.WORKERFS;
      if (!WORKERFS) throw new Error('the engine was built without WORKERFS (-lworkerfs.js)');
      FS.mount(WORKERFS, { files: [file] }, dir);
    }
    let summary: unknown;
    try {
      const answer = parseEngineJson(this.engine.openReport(path), 'openReport');
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

  private release(entry: { dir: string; path: string; mounted: boolean }): void {
    try {
      if (entry.mounted) this.engine.FS.unmount(entry.dir);
      else this.engine.FS.unlink?.(entry.path);
      this.engine.FS.rmdir(entry.dir);
    } catch {
      /* still in use by the engine: leave it */
    }
  }
}

// Reading a dropped File ahead, in a second worker, while the engine
// computes. The engine's reads of a report are few and large (its report VFS
// reads ahead in blocks of up to 32 MiB, core/report/block_vfs.h) but each
// is a synchronous FileReaderSync call in the engine's own worker, so the
// engine waits for the file half of the time. A Prefetcher serves those
// reads from chunks that a reader worker (prefetch_worker.ts) has already
// read into a SharedArrayBuffer ring, following the engine through the file.
//
// SharedArrayBuffer needs a cross-origin isolated page (COOP: same-origin,
// COEP: require-corp; scripts/serve.mjs sends both). Elsewhere there is no
// Prefetcher and the engine reads for itself, only slower.
import {
  CHANGES,
  CHUNK,
  chunkOf,
  CONTROL_WORDS,
  FREE,
  GENERATION,
  NEXT,
  READING,
  READY,
  type ReaderStart,
  signal,
  SLOTS,
  stateOf,
  STARTED,
  STOP,
} from './prefetch_shared';

/** Reads smaller than this (a b-tree page here and there) go straight to the File. */
export const SMALL_READ = 1 << 20;

type ReaderSync = { readAsArrayBuffer(blob: Blob): ArrayBuffer };

export class Prefetcher {
  private readonly control: Int32Array;
  private readonly data: Uint8Array;
  private readonly worker: Worker;

  constructor(
    private readonly file: Blob,
    private readonly reader: ReaderSync,
  ) {
    const control = new SharedArrayBuffer(CONTROL_WORDS * 4);
    const data = new SharedArrayBuffer(CHUNK * SLOTS);
    this.control = new Int32Array(control);
    this.data = new Uint8Array(data);
    // Start at the beginning, now: while the report opens, its summary shows
    // and the first rule is chosen, the reader is already ahead of the scan
    // that follows (the engine waited 0.8 s for the ring on the 1.8 GiB
    // report when the reader started at the first large read, 0.25 s so).
    Atomics.store(this.control, NEXT, 0);
    this.worker = new Worker(new URL('./prefetch_worker.ts', import.meta.url), { type: 'module', name: 'asys-file-reader' });
    const start: ReaderStart = { file, control, data };
    this.worker.postMessage(start);
  }

  /** Whether a Prefetcher can work here: shared memory and Atomics.wait in this worker. */
  static available(): boolean {
    return typeof SharedArrayBuffer === 'function' && (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true;
  }

  /** Copies `length` bytes of the file at `position` into `target` at `offset`; returns the bytes copied. */
  read(target: Uint8Array, offset: number, length: number, position: number): number {
    const end = Math.min(position + length, this.file.size);
    if (end <= position) return 0;
    if (end - position < SMALL_READ || Atomics.load(this.control, STOP) === 1) return this.direct(target, offset, position, end);
    let at = position;
    while (at < end) {
      const chunk = Math.floor(at / CHUNK);
      const upto = Math.min(end, (chunk + 1) * CHUNK);
      const slot = this.await(chunk);
      if (slot >= 0) {
        const base = slot * CHUNK + (at - chunk * CHUNK);
        target.set(this.data.subarray(base, base + (upto - at)), offset + (at - position));
      } else {
        // Not read ahead: send the reader on past it, read it here.
        this.redirect(chunk + 1);
        this.direct(target, offset + (at - position), at, upto);
      }
      at = upto;
    }
    this.release(Math.floor((end - 1) / CHUNK));
    return end - position;
  }

  /** Ends the reader worker. */
  close(): void {
    Atomics.store(this.control, STOP, 1);
    signal(this.control);
    this.worker.terminate();
  }

  private direct(target: Uint8Array, offset: number, from: number, to: number): number {
    const bytes = new Uint8Array(this.reader.readAsArrayBuffer(this.file.slice(from, to)));
    target.set(bytes, offset);
    return bytes.length;
  }

  /** The slot holding `chunk` once it is read, or -1 when the reader is not about to read it. */
  private await(chunk: number): number {
    for (;;) {
      const seen = Atomics.load(this.control, CHANGES);
      let reading = false;
      let free = false;
      for (let s = 0; s < SLOTS; s++) {
        const state = Atomics.load(this.control, stateOf(s));
        if (state === FREE) free = true;
        if (Atomics.load(this.control, chunkOf(s)) !== chunk) continue;
        if (state === READY) return s;
        if (state === READING) reading = true;
      }
      if (Atomics.load(this.control, STOP) === 1 || Atomics.load(this.control, STARTED) === 0) return -1;
      // Wait while the reader reads it, or is about to and has room to.
      const next = Atomics.load(this.control, NEXT);
      if (!reading && !(next === chunk && free)) return -1;
      Atomics.wait(this.control, CHANGES, seen, 1000);
    }
  }

  /** Sends the reader to `chunk` unless it is already reading there, dropping what it read elsewhere. */
  private redirect(chunk: number): void {
    const near = (c: number) => c >= chunk && c < chunk + SLOTS;
    if (near(Atomics.load(this.control, NEXT))) return;
    for (let s = 0; s < SLOTS; s++) {
      if (Atomics.load(this.control, stateOf(s)) !== FREE && near(Atomics.load(this.control, chunkOf(s)))) return;
    }
    Atomics.add(this.control, GENERATION, 1);
    for (let s = 0; s < SLOTS; s++) {
      if (Atomics.load(this.control, stateOf(s)) === READY) Atomics.store(this.control, stateOf(s), FREE);
    }
    Atomics.store(this.control, NEXT, chunk);
    signal(this.control);
  }

  /** Frees the chunks before `current` (read past), so the reader can go on. */
  private release(current: number): void {
    let freed = false;
    for (let s = 0; s < SLOTS; s++) {
      if (Atomics.load(this.control, stateOf(s)) === READY && Atomics.load(this.control, chunkOf(s)) < current) {
        Atomics.store(this.control, stateOf(s), FREE);
        freed = true;
      }
    }
    const next = Atomics.load(this.control, NEXT);
    if (next < current + 1) {
      // The reader fell behind (or has not started): it goes on from here.
      if (next < 0 || next <= current) Atomics.compareExchange(this.control, NEXT, next, current + 1);
      freed = true;
    }
    if (freed) signal(this.control);
  }
}

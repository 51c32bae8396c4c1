// The layout shared by the engine's worker and its file reader worker
// (prefetch.ts, prefetch_worker.ts): a ring of SLOTS chunks of one File in a
// SharedArrayBuffer, and control words in another, read and written with
// Atomics only.

/** Bytes per chunk: one FileReaderSync call of the reader worker. */
export const CHUNK = 16 << 20;
/** Chunks the reader may hold ahead of the engine. */
export const SLOTS = 4;

/** Slot states. */
export const FREE = 0;
export const READING = 1;
export const READY = 2;

/** Control words (an Int32Array of CONTROL_WORDS). */
export const GENERATION = 0; // bumped when the engine sends the reader elsewhere
export const NEXT = 1; // the next chunk the reader should read
export const CHANGES = 2; // bumped (and notified) on every change the other side waits for
export const STOP = 3; // 1 = the reader should end
// 1 once the reader worker runs. Until then the engine reads for itself: a
// nested worker may not start while its parent blocks in Atomics.wait (seen
// in Chromium on a busy machine: the engine waited for a reader that never
// came), so the engine never waits for a reader that has not started.
export const STARTED = 4;
const SLOT_BASE = 5;
export const stateOf = (slot: number) => SLOT_BASE + slot * 3;
export const chunkOf = (slot: number) => SLOT_BASE + slot * 3 + 1;
export const lengthOf = (slot: number) => SLOT_BASE + slot * 3 + 2;
export const CONTROL_WORDS = SLOT_BASE + SLOTS * 3;

/** What the engine's worker sends its reader worker, once. */
export interface ReaderStart {
  file: Blob;
  control: SharedArrayBuffer;
  data: SharedArrayBuffer;
}

/** Wakes whoever waits on CHANGES. */
export function signal(control: Int32Array): void {
  Atomics.add(control, CHANGES, 1);
  Atomics.notify(control, CHANGES);
}

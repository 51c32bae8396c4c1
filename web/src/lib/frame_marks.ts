// The timeline's frame timing, for bench/timeline-frames.mjs: User Timing
// marks and measures around a frame's window query and its paint, and from
// a zoom or pan input to the frame painted with that window's slices.
// Off unless the page sets globalThis.__ASYS_FRAME_MARKS__ = true before the
// app loads (the bench's init script): a frame then costs one property read,
// and no entries pile up in the performance timeline while someone zooms.
//   asys:tl-query   the window request posted -> its slices received (ms)
//   asys:tl-worker  of that, the worker's answering (engine and decoding)
//   asys:tl-paint   one canvas paint (the draw effect), synchronous
//   asys:tl-input   a wheel or key input that moved the window (a mark)
//   asys:tl-frame   the paint of a window's slices (a mark; detail: the
//                   window's sequence number, so the bench pairs it with
//                   the input that asked for that window)
type Flagged = { __ASYS_FRAME_MARKS__?: boolean };

export function frameMarksOn(): boolean {
  return (globalThis as Flagged).__ASYS_FRAME_MARKS__ === true;
}

export function frameMark(name: string, detail?: unknown): void {
  if (frameMarksOn()) performance.mark(name, detail === undefined ? undefined : { detail });
}

/** A measure of `ms` that ended now (a time taken elsewhere: the worker's). */
export function frameDuration(name: string, ms: number, detail?: unknown): void {
  if (frameMarksOn()) performance.measure(name, { start: performance.now() - ms, duration: ms, detail });
}

/** A measure from `start` (a performance.now() time) to now. */
export function frameMeasure(name: string, start: number, detail?: unknown): void {
  if (frameMarksOn()) performance.measure(name, { start, end: performance.now(), detail });
}

// The timeline's shapes as the page sees them (the worker makes them in
// timeline_api.ts). Kept apart from the worker's code: the page's bundle
// must not pull in the engine's file access (engine_api.ts and its reader
// worker), or the bundler loses the nested reader worker's chunk.
export interface TimelineTrackInfo {
  id: number;
  /** "PPU 0 (PPU-ZW810E)", "Process 1050788 (python3)". */
  group: string;
  /** "Stream 7", "Thread 1050790 (python3) HGGC API". */
  label: string;
  /** Rows inside the track (nesting levels or free lanes). */
  lanes: number;
  events: number;
}

export interface TimelineInfo {
  /** The events' extent, absolute ns. */
  first: bigint;
  last: bigint;
  /** META_DATA.captureStart: --filter-time counts from it; null when unknown. */
  captureStart: bigint | null;
  tracks: TimelineTrackInfo[];
}

/** What a slice stands for (core/timeline TimelineKind). */
export const SLICE_KINDS = ['kernel', 'memcpy', 'memset', 'api', 'apiError', 'hgtx'] as const;
export type SliceKind = (typeof SLICE_KINDS)[number];

/** One track's slices in a window: merged events, the longest naming each. */
export interface TrackSlices {
  id: number;
  start: BigInt64Array;
  end: BigInt64Array;
  lane: Uint16Array;
  kind: Uint8Array;
  /** How many events a slice stands for. */
  count: Uint32Array;
  /** The longest merged event's index in the track. */
  event: Uint32Array;
  /** Indices into the window's `names`. */
  name: Uint32Array;
}

export interface TimelineWindowSlices {
  names: string[];
  tracks: TrackSlices[];
}


/** One event of the timeline exactly (not a merged slice): where it is, its times (absolute ns), lane, kind and name. */
export interface TimelineEvent {
  track: number;
  /** Its index in the track (a window's `event`). */
  event: number;
  start: bigint;
  end: bigint;
  lane: number;
  /** Index into SLICE_KINDS. */
  kind: number;
  name: string;
}

/**
 * timelineRelated's answer: the selected event and the events linked to it by
 * correlation id (an HGGC API call -> the kernels, memcpys and memsets it
 * launched, in start order; an activity -> its launching call).
 */
export interface TimelineRelated {
  selected: TimelineEvent;
  related: TimelineEvent[];
}

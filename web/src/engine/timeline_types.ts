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
  /** The union of its events' intervals, ns. */
  busy?: bigint;
  /** Its busy time over its parent's, its context's or else its group's (0..1); null for a counter. */
  share?: number | null;
  /** A stream's context ("Context 2") when its PPU has streams of several; "" or absent: none shown. */
  context?: string;
  /** That context's busy time over its group's (0..1). */
  contextShare?: number | null;
  /** A counter track (memory in use, a PPU metric): a step chart, no slices. */
  counter?: CounterInfo | null;
  /**
   * The manual's `[All Streams]` row: the tracks (ids) it merges, its
   * context's streams. It has no events of its own (`events` 0); its slice's
   * event e is the sources' events numbered one after another (sourceEventOf).
   */
  sources?: number[];
  /** A row of one base name's or HGTX range's kernels under this stream (id): "Show kernels grouped by". */
  parent?: number;
  /** Which grouping made such a row (absent: base name). */
  groupedBy?: 'baseName' | 'hgtxRange';
  /** The HGTX range row of the kernels no range encloses (its label is the interface's). */
  outsideRanges?: boolean;
  /** The HGTX range row of the stream's less busy range names past the engine's 50: how many it merges. */
  otherRanges?: number;
  /**
   * A host row (core/timeline/host_rows.h): a process's HGTX start/end
   * ranges, a thread's rows of one library's ranges, a process's memory
   * allocation failures (its threads' failed calls drawn again).
   */
  hostRow?: HostRowKind;
  /** Per event of a start/end or failures row: what its details say. */
  hostNotes?: HostNotes;
  /**
   * The manual's device row of a PPU (lib/device_row.ts): its `sources` are
   * the PPU's work rows; kernels on lane 0, memcpys and memsets on lane 1.
   * `kernelShare` / `memoryShare`: the union of its kernels / memory
   * operations over the PPU's busy time (0..1, null: never busy).
   */
  deviceRow?: boolean;
  kernelShare?: number | null;
  memoryShare?: number | null;
  /**
   * A graph row (lib/graph_rows.ts): the stream (id) it is under, the graph
   * its exec was instantiated from (null: unknown) and the exec; an event
   * per launch of the exec on that stream, `graphNotes` what each says.
   */
  graphOf?: number;
  graph?: number | null;
  exec?: number;
  graphNotes?: GraphNotes;
}

/** Per launch of a graph row (its events): its launching call's correlation id, the nodes it ran by kind, its busy time (ns). */
export interface GraphNotes {
  correlationId: BigInt64Array;
  busy: BigInt64Array;
  kernels: Uint32Array;
  memcpys: Uint32Array;
  memsets: Uint32Array;
}

export type HostRowKind = 'startEnd' | 'library' | 'allocationFailures';

export interface HostNotes {
  /** The thread (globalTid) that started the range or made the call. */
  thread: BigInt64Array;
  /** A start/end range's ending thread; NO_END_THREAD: never ended. */
  endThread: BigInt64Array;
  /** A failed call's return value. */
  value: BigInt64Array;
}

/** HostNotes.endThread of a range the capture stopped before it ended (the engine's kNoValue). */
export const NO_END_THREAD = -(2n ** 63n);

/** Every row's busy share inside a range (timelineShares): per track in info.tracks' order, per group in info.groups'. */
export interface TimelineShares {
  tracks: { share: number | null; contextShare: number | null; kernelShare?: number | null; memoryShare?: number | null }[];
  groups: (number | null)[];
}

export interface CounterInfo {
  /** "B" for memory in use; a metric's unit ("%", "cycle/second"). */
  unit: string;
  /** Integer counters (bytes) come as BigInt, exact; the others as numbers. */
  integer: boolean;
  /** The axis max (the largest value), null when it has no value. */
  max: bigint | number | null;
}

/** A PPU or a process: its share of the busy time of every PPU / every process. */
export interface TimelineGroupInfo {
  name: string;
  busy: bigint;
  share: number | null;
}

export interface TimelineInfo {
  /** The events' extent, absolute ns. */
  first: bigint;
  last: bigint;
  /** META_DATA.captureStart: --filter-time counts from it; null when unknown. */
  captureStart: bigint | null;
  tracks: TimelineTrackInfo[];
  groups?: TimelineGroupInfo[];
  /** What the engine left out and why ("No HGTX projection rows: ..."). */
  notes?: string[];
  /** Kernels grouped by HGTX range refused: the report's PPU activities past the association's bound (the projection's). */
  rangeGroupsRefused?: { activities: number; max: number } | null;
}

/** What a slice stands for (core/timeline TimelineKind). */
export const SLICE_KINDS = ['kernel', 'memcpy', 'memset', 'api', 'apiError', 'hgtx', 'osrt', 'pcclKernel', 'pcclStage', 'projection', 'hgtxStartEnd', 'allocFailure', 'graphLaunch'] as const;
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
  /** A device row's only: per slice, its memcpy's memory kinds (source << 4 | destination, lib/device_row.ts MEM_KINDS; 0: not a memcpy). */
  memKind?: Uint8Array;
  /** Where the row is drawn as an occupancy histogram (its window holds more events than pixels): lib/occupancy.ts. */
  occupancy?: TrackOccupancy;
}

/** Per pixel column of [from, to) (absolute ns; column j from from + (to - from) * j / n, rounded down), its busy fraction 0..1. */
export interface TrackOccupancy {
  from: bigint;
  to: bigint;
  values: Float32Array;
  /** A device row's only: `values` are its kernels' (the upper half), these its memory operations' (the lower half). */
  lower?: Float32Array;
}

/**
 * A counter track's steps in a window: step k holds from time[k] to
 * time[k + 1] (the last to the window's end), its value within [min, max]
 * (equal where nothing merged at this zoom; NaN: no value).
 */
export interface CounterSteps {
  id: number;
  integer: boolean;
  time: BigInt64Array;
  min: BigInt64Array | Float64Array;
  max: BigInt64Array | Float64Array;
}

export interface TimelineWindowSlices {
  names: string[];
  tracks: TrackSlices[];
  counters?: CounterSteps[];
  /** The worker's time to answer (the engine's query and the decoding), ms: what of a query is not the messages. */
  workerMs?: number;
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

/** One PPU's times in a drag selection (core/timeline/selection_stats.h): union lengths inside it, exact ns. */
export interface DeviceSelectionStats {
  device: number;
  /** Its timeline group: "PPU 0 (PPU-ZW810E)". */
  name: string;
  /** The union of its work (kernels, memcpys, memsets) inside the selection, and the rest of it. */
  active: bigint;
  idle: bigint;
  /** The union of its kernels, and of its memory operations, inside the selection. */
  kernel: bigint;
  memory: bigint;
  /** Each of the four over the selection's length, percent to one decimal (the engine's rounding). */
  activePercent: number;
  idlePercent: number;
  kernelPercent: number;
  memoryPercent: number;
}

/** timelineSelection's figures: the window (absolute ns) and every PPU's times in it. */
export interface SelectionStats {
  from: bigint;
  to: bigint;
  length: bigint;
  devices: DeviceSelectionStats[];
}

// The host rows' words (core/timeline/host_rows.h; docs/timeline.md, "Host
// rows"): what a slice's tooltip and the details panel add for an HGTX
// start/end range (its threads, or that it never ended), a library API
// range (its library) and a memory allocation failure (the call, its
// return value, the thread). Pure: tests/web/host_rows.test.ts.
import { NO_END_THREAD, type TimelineTrackInfo } from '../engine/timeline_types';
import { displayApiName } from './display_names';

/** A globalTid's thread id, as the rows' labels show it ("Thread 25738"). */
export function threadIdOf(globalTid: bigint): string {
  return String(globalTid & 0xffffffn);
}

type HostTrack = Pick<TimelineTrackInfo, 'hostRow' | 'hostNotes' | 'label'>;
/** The words the lines are made of (i18n/messages.ts has them in each language). */
export interface HostWords {
  hostStartEnd: string;
  hostStartedEnded: (start: string, end: string) => string;
  hostStartedAndEnded: (thread: string) => string;
  hostNeverEnded: (thread: string) => string;
  hostLibrary: (library: string) => string;
  hostAllocFailure: (call: string, value: string) => string;
  hostAllocSize: string;
  hostAllocThread: (thread: string) => string;
}

/** The library a library row holds: its label's last word ("Thread 25738 (python3) ACBLAS" -> "ACBLAS"). */
export function libraryOfRow(label: string): string {
  const words = label.trim().split(' ');
  return words[words.length - 1] ?? '';
}

/**
 * What event `event` of `track` (a host row) says beyond its name, start and
 * duration, one line each: [] for any other row, or an event past its notes.
 * `name`: the event's name (a failed call's API name).
 */
export function hostEventLines(track: HostTrack | null | undefined, event: number, name: string, t: HostWords): string[] {
  if (!track?.hostRow) return [];
  if (track.hostRow === 'library') return [t.hostLibrary(libraryOfRow(track.label))];
  const notes = track.hostNotes;
  if (!notes || event < 0 || event >= notes.thread.length) return [];
  const thread = threadIdOf(notes.thread[event]);
  if (track.hostRow === 'startEnd') {
    const end = notes.endThread[event];
    if (end === NO_END_THREAD) return [t.hostStartEnd, t.hostNeverEnded(thread)];
    const endThread = threadIdOf(end);
    return [t.hostStartEnd, endThread === thread ? t.hostStartedAndEnded(thread) : t.hostStartedEnded(thread, endThread)];
  }
  return [t.hostAllocFailure(displayApiName(name), String(notes.value[event])), t.hostAllocSize, t.hostAllocThread(thread)];
}

/** The labels of a process's own host rows in the page's language (the engine names them in English). */
export interface HostRowLabels {
  hostRowStartEnd: string;
  hostRowFailures: string;
}

/**
 * The timeline's rows with a process's start/end and allocation failures
 * rows labelled in the page's language; the same object when it has none.
 */
export function withHostLabels<T extends { tracks: TimelineTrackInfo[] }>(info: T, words: HostRowLabels): T {
  const label = (t: TimelineTrackInfo) =>
    t.hostRow === 'startEnd' ? words.hostRowStartEnd : t.hostRow === 'allocationFailures' ? words.hostRowFailures : t.label;
  if (!info.tracks.some((t) => label(t) !== t.label)) return info;
  return { ...info, tracks: info.tracks.map((t) => (label(t) === t.label ? t : { ...t, label: label(t) })) };
}

/** Whether an event of this row is a failed call drawn again, whose call the details can go to. */
export function isRepeatedCall(track: HostTrack | null | undefined): boolean {
  return track?.hostRow === 'allocationFailures';
}

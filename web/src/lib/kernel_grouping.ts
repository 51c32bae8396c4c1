// "Show kernels grouped by" (Nsight Systems' setting of that name): none,
// base name, or HGTX range (docs/timeline.md). The engine builds a
// stream's rows by either when asked and lists them after every other track,
// each with its `parent` and `groupedBy`; these helpers pick the rows of the
// grouping shown and give the engine's no-range row its label in the
// interface's language.
import type { TimelineInfo, TimelineTrackInfo } from '../engine/timeline_types';

export type KernelGrouping = 'none' | 'baseName' | 'hgtxRange';
export const KERNEL_GROUPINGS: readonly KernelGrouping[] = ['none', 'baseName', 'hgtxRange'];

/** The grouping that made a row: 'none' for a row of its own, else its `groupedBy` (absent: base name, as every such row was). */
export function groupingOf(t: Pick<TimelineTrackInfo, 'parent' | 'groupedBy'>): KernelGrouping {
  return t.parent === undefined ? 'none' : (t.groupedBy ?? 'baseName');
}

/** The grouping a select's value names ('none' for anything else). */
export function kernelGroupingFrom(v: string): KernelGrouping {
  return (KERNEL_GROUPINGS as readonly string[]).includes(v) ? (v as KernelGrouping) : 'none';
}

/** Whether the engine refuses `grouping` for this report (HGTX range past the association's bound). */
export function groupingRefused(info: Pick<TimelineInfo, 'rangeGroupsRefused'> | null, grouping: KernelGrouping): boolean {
  return grouping === 'hgtxRange' && !!info?.rangeGroupsRefused;
}

/**
 * The tracks with the no-range row (`outsideRanges`) labelled `outside`
 * (the interface's "(no HGTX range)") and the row of a stream's less busy
 * range names (`otherRanges`) `other(n)`; the same object when none
 * changes, so that a memo keyed on it holds.
 */
export function withRangeRowLabels(info: TimelineInfo | null, outside: string, other: (n: number) => string): TimelineInfo | null {
  if (!info) return info;
  const labelOf = (t: TimelineTrackInfo) => (t.outsideRanges ? outside : t.otherRanges ? other(t.otherRanges) : t.label);
  if (!info.tracks.some((t) => labelOf(t) !== t.label)) return info;
  return { ...info, tracks: info.tracks.map((t) => (labelOf(t) !== t.label ? { ...t, label: labelOf(t) } : t)) };
}

// "Show kernels grouped by" (lib/kernel_grouping.ts, lib/timeline.ts
// displayOrder): which rows a grouping shows, and where; the no-range row's
// label; the refusal above the association's bound.
import { describe, expect, it } from 'vitest';
import type { TimelineInfo, TimelineTrackInfo } from '../../web/src/engine/timeline_types';
import { groupingOf, groupingRefused, kernelGroupingFrom, withRangeRowLabels } from '../../web/src/lib/kernel_grouping';
import { displayOrder } from '../../web/src/lib/timeline';

const track = (id: number, extra: Partial<TimelineTrackInfo> = {}): TimelineTrackInfo => ({
  id,
  group: 'PPU 0',
  label: `t${id}`,
  lanes: 1,
  events: 1,
  ...extra,
});

// Streams 0 and 1, a counter 2; stream 0's rows by base name 3 and 4, its
// rows by HGTX range 5 (a range) and 6 (no range), stream 1's by range 7.
const tracks = [
  track(0),
  track(1),
  track(2),
  track(3, { parent: 0 }),
  track(4, { parent: 0, groupedBy: 'baseName' }),
  track(5, { parent: 0, groupedBy: 'hgtxRange' }),
  track(6, { parent: 0, groupedBy: 'hgtxRange', outsideRanges: true, label: '(no HGTX range)' }),
  track(7, { parent: 1, groupedBy: 'hgtxRange' }),
  track(8, { parent: 1, groupedBy: 'hgtxRange', otherRanges: 1234, label: '(1234 other HGTX ranges)' }),
];

describe('kernel grouping', () => {
  it('shows the rows of the chosen grouping under their stream, in id order', () => {
    expect(displayOrder(tracks, 'none').map((t) => t.id)).toEqual([0, 1, 2]);
    expect(displayOrder(tracks, 'baseName').map((t) => t.id)).toEqual([0, 3, 4, 1, 2]);
    expect(displayOrder(tracks, 'hgtxRange').map((t) => t.id)).toEqual([0, 5, 6, 1, 7, 8, 2]);
    // The boolean of before: true is base name.
    expect(displayOrder(tracks, true).map((t) => t.id)).toEqual([0, 3, 4, 1, 2]);
    expect(displayOrder(tracks, false).map((t) => t.id)).toEqual([0, 1, 2]);
  });

  it('tells a row\'s grouping (a row without groupedBy is by base name) and reads a select\'s value', () => {
    expect(tracks.map(groupingOf)).toEqual(['none', 'none', 'none', 'baseName', 'baseName', 'hgtxRange', 'hgtxRange', 'hgtxRange', 'hgtxRange']);
    expect(kernelGroupingFrom('hgtxRange')).toBe('hgtxRange');
    expect(kernelGroupingFrom('baseName')).toBe('baseName');
    expect(kernelGroupingFrom('nonsense')).toBe('none');
  });

  it('labels the no-range and other-ranges rows in the interface\'s language, keeping the object when nothing changes', () => {
    const info: TimelineInfo = { first: 0n, last: 10n, captureStart: null, tracks };
    const other = (n: number) => `（其余 ${n.toLocaleString('en-US')} 个 HGTX range）`;
    const zh = withRangeRowLabels(info, '（无 HGTX range）', other)!;
    expect(zh.tracks[6].label).toBe('（无 HGTX range）');
    expect(zh.tracks[8].label).toBe('（其余 1,234 个 HGTX range）');
    expect(zh.tracks.filter((t) => /[无其]/.test(t.label)).map((t) => t.id)).toEqual([6, 8]);
    expect(zh.tracks[5]).toBe(tracks[5]);
    expect(withRangeRowLabels(info, '(no HGTX range)', (n) => `(${n} other HGTX ranges)`)).toBe(info);
    expect(withRangeRowLabels(null, 'x', other)).toBe(null);
  });

  it('refuses HGTX range where the engine says the association does not fit', () => {
    const refused = { rangeGroupsRefused: { activities: 13_300_000, max: 2_000_000 } };
    expect(groupingRefused(refused, 'hgtxRange')).toBe(true);
    expect(groupingRefused(refused, 'baseName')).toBe(false);
    expect(groupingRefused({ rangeGroupsRefused: null }, 'hgtxRange')).toBe(false);
    expect(groupingRefused(null, 'hgtxRange')).toBe(false);
  });
});

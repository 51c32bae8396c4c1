// The model the timeline painter (web/src/lib/timeline_paint.ts) draws in
// the tests: `tracks` laid out as the view lays them out, `slices` their
// window, a 730 x 200 px canvas over the window 0-1000 ns from PAINT_ORIGIN,
// nothing picked, selected or highlighted; `over` changes any part.
import type { TimelineTrackInfo, TimelineWindowSlices } from '../../web/src/engine/timeline_types';
import { layoutTracks } from '../../web/src/lib/timeline';
import type { TimelineColors, TimelinePaintModel } from '../../web/src/lib/timeline_paint';

// Offsets are from it: a slice at PAINT_ORIGIN + 100n is at offset 100.
export const PAINT_ORIGIN = 1_000_000n;
export const PAINT_HEIGHT = 200;
export const PAINT_COLORS: TimelineColors = { text: 'c-text', text2: 'c-text2', text3: 'c-text3', line: 'c-line', subtle: 'c-subtle', rowAlt: 'c-row' };

export function paintModel(tracks: TimelineTrackInfo[], slices: TimelineWindowSlices, over: Partial<TimelinePaintModel> = {}): TimelinePaintModel {
  const layout = layoutTracks(tracks);
  return {
    width: 730,
    height: PAINT_HEIGHT,
    scrollTop: 0,
    viewport: { from: 0, to: 1000 },
    origin: PAINT_ORIGIN,
    zero: PAINT_ORIGIN, // the axis counts from the origin unless a test moves the zero
    last: PAINT_ORIGIN + 1000n,
    rows: layout.rows,
    rowOf: new Map(layout.rows.map((r) => [r.track.id, r])),
    groupShare: new Map(),
    slices,
    range: null,
    highlight: null,
    highlightName: null,
    picked: null,
    selection: null,
    related: null,
    colors: PAINT_COLORS,
    ...over,
  };
}

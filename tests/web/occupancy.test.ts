// Occupancy histograms in the page (lib/occupancy.ts): a column's edges as
// the engine rounds them, the value under a time, the bars drawn, and a
// histogram row in paint: bars instead of slices, a marked slice still
// drawn and outlined, every slice still counted (and picked by a click).
import { describe, expect, it } from 'vitest';
import type { TimelineTrackInfo, TimelineWindowSlices, TrackOccupancy } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { columnEdge, occupancyAt, paintOccupancy } from '../../web/src/lib/occupancy';
import { plotScale } from '../../web/src/lib/timeline';
import { MARK_COLOR, SLICE_COLORS, paint, type TimelinePaintModel } from '../../web/src/lib/timeline_paint';
import { PaintRecorder } from './paint_recorder';
import { PAINT_ORIGIN, paintModel } from './paint_model';

const occ = (from: bigint, to: bigint, values: number[]): TrackOccupancy => ({ from, to, values: Float32Array.from(values) });

describe('occupancy: columns', () => {
  it('puts column j at from + (to - from) * j / n, rounded down', () => {
    const o = occ(0n, 10n, [1, 1, 1]); // edges 0, 3, 6, 10
    expect([0, 1, 2, 3].map((j) => columnEdge(o, j))).toEqual([0n, 3n, 6n, 10n]);
  });

  it('reads the column holding a time, none outside', () => {
    const o = occ(100n, 110n, [0.25, 0.5, 1]); // [100, 103), [103, 106), [106, 110)
    expect(occupancyAt(o, 100n)).toBe(0.25);
    expect(occupancyAt(o, 102n)).toBe(0.25);
    expect(occupancyAt(o, 103n)).toBe(0.5);
    expect(occupancyAt(o, 109n)).toBe(1);
    expect(occupancyAt(o, 110n)).toBeNull();
    expect(occupancyAt(o, 99n)).toBeNull();
  });

  it('draws runs of one value as one bar, bottom-aligned, none for idle columns', () => {
    // 4 columns over [0, 1000) ns on a 500 px plot from x = 230: 125 px each.
    const o = occ(0n, 1000n, [1, 1, 0, 0.5]);
    const g = new PaintRecorder();
    const scale = plotScale({ from: 0, to: 1000 }, 730);
    expect(paintOccupancy(g, o, 40, 20, scale, 0n, 'c')).toBe(2);
    expect(g.calls('fillRect').map((c) => c.args)).toEqual([
      [230, 40, 250, 20], // columns 0-1, full
      [605, 50, 125, 10], // column 3, half: 10 px from the bottom (40 + 20)
    ]);
  });
});

describe('occupancy: paint', () => {
  const ORIGIN = PAINT_ORIGIN;
  const stream: TimelineTrackInfo = { id: 0, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 500 };
  const slices = (occupancy?: TrackOccupancy): TimelineWindowSlices => ({
    names: ['gemm', 'relu'],
    tracks: [
      {
        id: 0,
        start: BigInt64Array.from([0n, 500n], (v) => ORIGIN + v),
        end: BigInt64Array.from([400n, 900n], (v) => ORIGIN + v),
        lane: Uint16Array.from([0, 0]),
        kind: Uint8Array.from([SLICE_KINDS.indexOf('kernel'), SLICE_KINDS.indexOf('kernel')]),
        count: Uint32Array.from([250, 250]),
        event: Uint32Array.from([0, 250]),
        name: Uint32Array.from([0, 1]),
        ...(occupancy ? { occupancy } : {}),
      },
    ],
  });
  const model = (s: TimelineWindowSlices, over: Partial<TimelinePaintModel> = {}) => paintModel([stream], s, over);
  const kernelFills = (g: PaintRecorder) => g.calls('fillRect').filter((c) => c.fillStyle === SLICE_COLORS.kernel).map((c) => c.args);

  it('without occupancy: the slices', () => {
    const g = new PaintRecorder();
    const counts = paint(g, model(slices()));
    expect(counts.histograms).toBe(0);
    expect(kernelFills(g)).toEqual([
      [230, 43, 200, 14],
      [480, 43, 200, 14],
    ]);
  });

  it('with occupancy: bars across the row (its lane, 1 px inside), the slices counted but not filled', () => {
    const g = new PaintRecorder();
    // 2 columns over [0, 1000): 0.8 and 0.4 busy; the row is 16 px: bars in [43, 57), 14 px tall at most.
    const counts = paint(g, model(slices(occ(ORIGIN, ORIGIN + 1000n, [0.8, 0.4]))));
    expect(counts.histograms).toBe(1);
    expect(counts.slices).toBe(2);
    const bars = kernelFills(g);
    expect(bars).toHaveLength(2);
    expect(bars[0][0]).toBe(230);
    expect(bars[0][2]).toBe(250);
    expect(bars[0][3]).toBeCloseTo(0.8 * 14, 5);
    expect(bars[0][1]).toBeCloseTo(43 + 14 - 0.8 * 14, 5);
    expect(bars[1][0]).toBe(480);
    expect(bars[1][3]).toBeCloseTo(0.4 * 14, 5);
  });

  it('a marked slice on a histogram row is drawn and outlined over the bars', () => {
    const g = new PaintRecorder();
    const counts = paint(g, model(slices(occ(ORIGIN, ORIGIN + 1000n, [0.8, 0.4])), { highlightName: 'relu' }));
    expect(counts.marked).toBe(1);
    expect(counts.dimmed).toBe(1);
    // The bars faded, the marked slice (500..900 ns: x 480, 200 px) filled at full strength and outlined.
    const fills = g.calls('fillRect').filter((c) => c.fillStyle === SLICE_COLORS.kernel);
    expect(fills.filter((c) => c.globalAlpha < 1)).toHaveLength(2);
    expect(fills.filter((c) => c.globalAlpha === 1).map((c) => c.args)).toEqual([[480, 43, 200, 14]]);
    expect(g.calls('strokeRect').filter((c) => c.strokeStyle === MARK_COLOR).map((c) => c.args)).toEqual([[480, 43, 200, 14]]);
  });
});

// Occupancy histograms of the merged rows in the page (lib/occupancy.ts):
// the column under a time, a device row's two halves (its kernels on its
// upper lane, its memory operations on its lower: the value under the
// pointer's lane, the bands drawn), and a device row drawn as bars in paint
// while its slices are still counted.
import { describe, expect, it } from 'vitest';
import type { TimelineTrackInfo, TimelineWindowSlices, TrackOccupancy } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { columnAt, columnEdge, histogramBands, occupancyAt } from '../../web/src/lib/occupancy';
import { LANE_HEIGHT } from '../../web/src/lib/timeline';
import { SLICE_COLORS, paint } from '../../web/src/lib/timeline_paint';
import { PaintRecorder } from './paint_recorder';
import { PAINT_ORIGIN, paintModel } from './paint_model';

const device = (from: bigint, to: bigint, kernels: number[], memory: number[]): TrackOccupancy => ({
  from,
  to,
  values: Float32Array.from(kernels),
  lower: Float32Array.from(memory),
});

describe('occupancy: merged rows', () => {
  it('the column under a time, with the edges the engine rounds', () => {
    // 3 columns over [100, 110): edges 100, 103, 106, 110.
    const o = device(100n, 110n, [1, 0.5, 0], [0, 0.25, 1]);
    expect([99n, 100n, 102n, 103n, 106n, 109n, 110n].map((t) => columnAt(o, t))).toEqual([-1, 0, 0, 1, 2, 2, -1]);
    expect(columnEdge(o, 1)).toBe(103n);
    expect(columnEdge(o, 3)).toBe(110n);
  });

  it("a device row: lane 0 reads its kernels' half, lane 1 its memory operations'", () => {
    const o = device(100n, 110n, [1, 0.5, 0], [0, 0.25, 1]);
    expect(occupancyAt(o, 104n)).toBe(0.5);
    expect(occupancyAt(o, 104n, 0)).toBe(0.5);
    expect(occupancyAt(o, 104n, 1)).toBe(0.25);
    expect(occupancyAt(o, 107n, 1)).toBe(1);
    expect(occupancyAt(o, 111n, 1)).toBeNull();
    // Any other row has one value a column, whatever the lane.
    const one: TrackOccupancy = { from: 100n, to: 110n, values: Float32Array.from([1, 0.5, 0]) };
    expect(occupancyAt(one, 104n, 3)).toBe(0.5);
  });

  it('bands: the whole row, or a device row its two lanes', () => {
    const one: TrackOccupancy = { from: 0n, to: 10n, values: Float32Array.from([1]) };
    expect(histogramBands(one, 41, 30, LANE_HEIGHT).map((b) => [b.top, b.height, b.kind])).toEqual([[41, 30, null]]);
    const o = device(0n, 10n, [1], [0.5]);
    const bands = histogramBands(o, 41, 2 * LANE_HEIGHT - 2, LANE_HEIGHT);
    expect(bands.map((b) => [b.top, b.height, b.kind, Array.from(b.occupancy.values)])).toEqual([
      [41, LANE_HEIGHT - 2, 'kernel', [1]],
      [41 + LANE_HEIGHT, LANE_HEIGHT - 2, 'memcpy', [0.5]],
    ]);
  });
});

describe('occupancy: a device row in paint', () => {
  const ORIGIN = PAINT_ORIGIN;
  const row: TimelineTrackInfo = { id: 0, group: 'PPU 0', label: 'Device', lanes: 2, events: 0, sources: [1, 2], deviceRow: true };
  const slices = (occupancy?: TrackOccupancy): TimelineWindowSlices => ({
    names: ['gemm', 'HtoD'],
    tracks: [
      {
        id: 0,
        start: BigInt64Array.from([0n, 500n], (v) => ORIGIN + v),
        end: BigInt64Array.from([400n, 900n], (v) => ORIGIN + v),
        lane: Uint16Array.from([0, 1]),
        kind: Uint8Array.from([SLICE_KINDS.indexOf('kernel'), SLICE_KINDS.indexOf('memset')]),
        count: Uint32Array.from([250, 250]),
        event: Uint32Array.from([0, 250]),
        name: Uint32Array.from([0, 1]),
        memKind: Uint8Array.from([0, 0]),
        ...(occupancy ? { occupancy } : {}),
      },
    ],
  });

  it("kernels' bars on the upper lane, memory operations' on the lower, the slices counted but not filled", () => {
    const g = new PaintRecorder();
    // 2 columns over [0, 1000): kernels 1 and 0, memory 0 and 0.5.
    const counts = paint(g, paintModel([row], slices(device(ORIGIN, ORIGIN + 1000n, [1, 0], [0, 0.5]))));
    expect(counts.histograms).toBe(1);
    expect(counts.slices).toBe(2);
    const fills = (color: string) => g.calls('fillRect').filter((c) => c.fillStyle === color).map((c) => c.args);
    const kernels = fills(SLICE_COLORS.kernel);
    const memory = fills(SLICE_COLORS.memcpy);
    expect(kernels).toHaveLength(1);
    expect(memory).toHaveLength(1);
    // The kernels' bar: column 0 (x 230, 250 px), the upper lane full; the memory bar: column 1, half the lower lane.
    const [kx, ky, kw, kh] = kernels[0] as number[];
    const [mx, my, mw, mh] = memory[0] as number[];
    expect([kx, kw, kh]).toEqual([230, 250, LANE_HEIGHT - 2]);
    expect([mx, mw]).toEqual([480, 250]);
    expect(mh).toBeCloseTo((LANE_HEIGHT - 2) / 2, 5);
    // The memory bar sits in the lower lane, bottom-aligned one lane below the kernels' bar.
    expect(my + mh).toBeCloseTo(ky + kh + LANE_HEIGHT, 5);
    // No slice filled under the bars (the memset's colour is not drawn).
    expect(fills(SLICE_COLORS.memset)).toHaveLength(0);
  });

  it('without occupancy: its slices on their lanes', () => {
    const g = new PaintRecorder();
    const counts = paint(g, paintModel([row], slices()));
    expect(counts.histograms).toBe(0);
    expect(g.calls('fillRect').filter((c) => c.fillStyle === SLICE_COLORS.memset)).toHaveLength(1);
  });
});

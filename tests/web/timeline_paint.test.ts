// What the timeline's paint draws for small hand-made models, read off a
// recording fake context. Every expected coordinate is worked out by hand
// in the comments from the layout's constants: the labels' column is 230 px
// wide, the axis 24 px tall, a lane 16 px, a group's heading 18 px; a canvas
// 730 px wide so has a 500 px plot, and a 0–1000 ns window puts offset t at
// x = 230 + t / 2.
import { describe, expect, it } from 'vitest';
import type { TimelineRelated, TimelineTrackInfo, TrackSlices } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import {
  COUNTER_COLOR,
  HIGHLIGHT_FILL,
  MARK_COLOR,
  PICKED_COLOR,
  RANGE_SHADE,
  SELECTION_FILL,
  SELECTION_LINE,
  SLICE_COLORS,
  paint,
  type TimelinePaintModel,
} from '../../web/src/lib/timeline_paint';
import { PaintRecorder } from './paint_recorder';
import { PAINT_COLORS, PAINT_HEIGHT, PAINT_ORIGIN, paintModel } from './paint_model';

const ORIGIN = PAINT_ORIGIN; // offsets are from it: a slice at ORIGIN + 100n is at offset 100
const HEIGHT = PAINT_HEIGHT;
const COLORS = PAINT_COLORS;

const stream = (id: number, label: string, group = 'PPU 0'): TimelineTrackInfo => ({ id, group, label, lanes: 1, events: 1 });

interface SliceIn {
  start: number;
  end: number;
  name: string;
  kind?: (typeof SLICE_KINDS)[number];
  lane?: number;
}

/** One track's window slices from [start, end] offsets. */
function slicesOf(id: number, list: SliceIn[], names: string[]): TrackSlices {
  const nameIndex = (n: string) => (names.includes(n) ? names.indexOf(n) : names.push(n) - 1);
  return {
    id,
    start: BigInt64Array.from(list, (s) => ORIGIN + BigInt(s.start)),
    end: BigInt64Array.from(list, (s) => ORIGIN + BigInt(s.end)),
    lane: Uint16Array.from(list, (s) => s.lane ?? 0),
    kind: Uint8Array.from(list, (s) => SLICE_KINDS.indexOf(s.kind ?? 'kernel')),
    count: Uint32Array.from(list, () => 1),
    event: Uint32Array.from(list, (_, i) => i),
    name: Uint32Array.from(list, (s) => nameIndex(s.name)),
  };
}

function model(tracks: TimelineTrackInfo[], perTrack: SliceIn[][], over: Partial<TimelinePaintModel> = {}): TimelinePaintModel {
  const names: string[] = [];
  return paintModel(tracks, { names, tracks: perTrack.map((list, i) => slicesOf(tracks[i].id, list, names)) }, over);
}

const painted = (m: TimelinePaintModel) => {
  const g = new PaintRecorder();
  const counts = paint(g, m);
  return { g, counts };
};
/** The slice fills: fillRects in a slice colour, 14 px tall (a lane less 2 px). */
const sliceFills = (g: PaintRecorder) => g.calls('fillRect').filter((c) => c.args[3] === 14);

// The first (only) stream of a group: its heading takes 18 px, so its lane's
// top is 18 in the layout, 24 + 18 = 42 on the canvas, and a slice is drawn
// 1 px inside: y = 43, 14 px tall.
const SLICE_Y = 43;

describe('timeline paint: slices', () => {
  it('a slice at [100, 200] ns of a 0–1000 ns window on a 500 px plot is drawn at x = 280, 50 px wide', () => {
    const { g, counts } = painted(model([stream(0, 'Stream 7')], [[{ start: 100, end: 200, name: 'gemm' }]]));
    const fills = sliceFills(g);
    expect(fills.map((c) => c.args)).toEqual([[280, SLICE_Y, 50, 14]]); // 230 + 100/2, (200 - 100)/2
    expect(fills[0].fillStyle).toBe(SLICE_COLORS.kernel);
    expect(fills[0].globalAlpha).toBe(1);
    expect(counts.slices).toBe(1);
  });

  it('the window moved by the origin: offsets, not absolute times, place a slice', () => {
    const m = model([stream(0, 's')], [[{ start: 600, end: 700, name: 'k' }]], { viewport: { from: 500, to: 1000 } });
    // 500 ns across 500 px: 1 px per ns; offset 600 at 230 + 100.
    expect(sliceFills(painted(m).g).map((c) => c.args)).toEqual([[330, SLICE_Y, 100, 14]]);
  });

  it('a slice narrower than a pixel is drawn 1 px wide', () => {
    // [500, 501] ns: x from 480 to 480.5, widened to 481.
    const { g } = painted(model([stream(0, 's')], [[{ start: 500, end: 501, name: 'tiny' }]]));
    expect(sliceFills(g).map((c) => c.args)).toEqual([[480, SLICE_Y, 1, 14]]);
  });

  it('slices wholly outside the plot are not drawn; one across its left edge is, from its own start', () => {
    const { g, counts } = painted(
      model([stream(0, 's')], [[{ start: -600, end: -500, name: 'before' }, { start: 1200, end: 1300, name: 'after' }, { start: -100, end: 100, name: 'across' }]]),
    );
    // [-600, -500]: x1 = 230 - 250 = -20 < 230; [1200, 1300]: x0 = 830 > 730; [-100, 100]: 180 to 280.
    expect(sliceFills(g).map((c) => c.args)).toEqual([[180, SLICE_Y, 100, 14]]);
    expect(counts.slices).toBe(1);
  });

  it('a memcpy takes its direction colour, other kinds their own', () => {
    const { g } = painted(
      model([stream(0, 's')], [[{ start: 0, end: 100, name: 'Memcpy DtoH (pinned)', kind: 'memcpy' }, { start: 200, end: 300, name: 'cudaLaunch', kind: 'api' }]]),
    );
    expect(sliceFills(g).map((c) => c.fillStyle)).toEqual(['#d37295', SLICE_COLORS.api]);
  });

  it('a slice in a lane below the first is drawn one lane (16 px) lower', () => {
    const track = { ...stream(0, 's'), lanes: 2 };
    const { g } = painted(model([track], [[{ start: 0, end: 100, name: 'k', lane: 1 }]]));
    expect(sliceFills(g).map((c) => c.args)).toEqual([[230, SLICE_Y + 16, 50, 14]]);
  });
});

describe('timeline paint: slice labels', () => {
  const labels = (g: PaintRecorder) => g.calls('fillText').filter((c) => c.fillStyle === '#fff');

  it('a slice wider than 40 px carries its name, 3 px inside, centred in the lane', () => {
    const { g } = painted(model([stream(0, 's')], [[{ start: 100, end: 200, name: 'gemm' }]]));
    // Left 280 + 3; room 330 - 283 - 3 = 44 px, "gemm" is 24 px; y = 43 + 14 / 2.
    expect(labels(g).map((c) => c.args)).toEqual([['gemm', 283, 50]]);
  });

  it('a name longer than the room is cut with an ellipsis; 40 px or narrower carries none', () => {
    const { g } = painted(
      model([stream(0, 's')], [[{ start: 100, end: 200, name: 'flash_attention_forward' }, { start: 400, end: 480, name: 'exactly40' }, { start: 600, end: 660, name: 'x' }]]),
    );
    // 44 px of room at 6 px a letter: 6 letters and the ellipsis (42 px). 80 ns = 40 px and 60 ns = 30 px: no label.
    expect(labels(g).map((c) => c.args[0])).toEqual(['flash_…']);
  });

  it('a slice across the plot\'s left edge has its name from the edge', () => {
    const { g } = painted(model([stream(0, 's')], [[{ start: -100, end: 100, name: 'across' }]]));
    // Drawn from 180 to 280: the name starts at 230 + 3, room 280 - 233 - 3 = 44 px.
    expect(labels(g).map((c) => c.args)).toEqual([['across', 233, 50]]);
  });

  it('back-to-back ranges each carry their own name, from their own left edge', () => {
    // [100, 200] and [200, 300] end to end: x 280 and 330, each 50 px, room 44 px.
    const { g } = painted(
      model([stream(0, 's')], [[{ start: 100, end: 200, name: 'Step#1', kind: 'hgtx' }, { start: 200, end: 300, name: 'Step#2', kind: 'hgtx' }]]),
    );
    expect(labels(g).map((c) => c.args)).toEqual([['Step#1', 283, 50], ['Step#2', 333, 50]]);
  });

  it('an API call is named without its CUPTI version tag; a kernel keeps its name', () => {
    const { g } = painted(
      model([stream(0, 's')], [[{ start: 100, end: 300, name: 'cudaMemcpyAsync_v3020', kind: 'api' }, { start: 400, end: 600, name: 'gemm_v1234' }]]),
    );
    expect(labels(g).map((c) => c.args[0])).toEqual(['cudaMemcpyAsync', 'gemm_v1234']);
  });

  it('no room for a letter and the ellipsis: no label at all', () => {
    // [988, 1100]: x0 = 724, 56 px wide; left 727, room 730 - 727 - 3 = 0: nothing fits.
    const { g } = painted(model([stream(0, 's')], [[{ start: 988, end: 1100, name: 'late' }]]));
    expect(labels(g)).toEqual([]);
    expect(sliceFills(g).map((c) => c.args)).toEqual([[724, SLICE_Y, 56, 14]]);
  });
});

describe('timeline paint: an event a table row showed (spotlight)', () => {
  const event = (track: number, index: number, start: number, end: number, lane = 0) => ({
    track,
    event: index,
    start: ORIGIN + BigInt(start),
    end: ORIGIN + BigInt(end),
    lane,
    kind: 0,
    name: 'b',
  });

  it('is outlined at its own box, and every other slice (on any row) faded to a quarter', () => {
    const tracks = [stream(0, 'Stream 7'), stream(1, 'Stream 8')];
    const m = model(tracks, [[{ start: 0, end: 100, name: 'a' }, { start: 100, end: 200, name: 'b' }], [{ start: 100, end: 200, name: 'b' }]], {
      spotlight: event(0, 1, 100, 200),
    });
    const { g, counts } = painted(m);
    // Track 0's slices, then track 1's (same name, other event): only track 0's event 1 is drawn whole.
    expect(sliceFills(g).map((c) => c.globalAlpha)).toEqual([0.25, 1, 0.25]);
    expect(counts.spotlit).toBe(1);
    expect(counts.dimmed).toBe(2);
    // Its own box: offsets 100..200 at 280..330 on the first stream's lane (y 43).
    const marks = g.calls('strokeRect').filter((c) => c.strokeStyle === MARK_COLOR);
    expect(marks.map((c) => [c.args, c.lineWidth])).toEqual([[[280, SLICE_Y, 50, 14], 2]]);
  });

  it('merged into a longer slice at this zoom: that slice is faded, the event still outlined at its own time, at least 3 px', () => {
    // The window's slice [0, 400] names event 0; the spotlit event 1 is [100, 101]: x 280..280.5, widened to 3 px.
    const m = model([stream(0, 's')], [[{ start: 0, end: 400, name: 'long' }]], { spotlight: event(0, 1, 100, 101) });
    const { g, counts } = painted(m);
    expect(sliceFills(g).map((c) => c.globalAlpha)).toEqual([0.25]);
    expect(counts.spotlit).toBe(0);
    const marks = g.calls('strokeRect').filter((c) => c.strokeStyle === MARK_COLOR);
    expect(marks.map((c) => c.args)).toEqual([[280, SLICE_Y, 3, 14]]);
  });

  it('on a row out of the layout: nothing outlined, the slices in view still faded', () => {
    const m = model([stream(0, 's')], [[{ start: 0, end: 100, name: 'a' }]], { spotlight: event(9, 0, 0, 100) });
    const { g, counts } = painted(m);
    expect(g.calls('strokeRect').filter((c) => c.strokeStyle === MARK_COLOR)).toEqual([]);
    expect(counts.dimmed).toBe(1);
  });
});

describe('timeline paint: picked, marked and selected', () => {
  it('the picked slice is outlined 2 px in black at its own box', () => {
    const m = model([stream(0, 's')], [[{ start: 0, end: 100, name: 'a' }, { start: 100, end: 200, name: 'b' }]], { picked: { track: 0, index: 1 } });
    const outlines = painted(m).g.calls('strokeRect').filter((c) => c.strokeStyle === PICKED_COLOR);
    expect(outlines.map((c) => [c.args, c.lineWidth])).toEqual([[[280, SLICE_Y, 50, 14], 2]]);
  });

  it('with a name marked, its slices are outlined and the others faded to a quarter', () => {
    const m = model([stream(0, 's')], [[{ start: 0, end: 100, name: 'gemm' }, { start: 100, end: 200, name: 'other' }]], { highlightName: 'gemm' });
    const { g, counts } = painted(m);
    expect(sliceFills(g).map((c) => c.globalAlpha)).toEqual([1, 0.25]);
    const marks = g.calls('strokeRect').filter((c) => c.strokeStyle === MARK_COLOR);
    expect(marks.map((c) => c.args)).toEqual([[230, SLICE_Y, 50, 14]]);
    expect(counts.marked).toBe(1);
  });

  it('a dragged selection is a full-height band at its offsets', () => {
    // [400, 600] ns: 230 + 200 to 230 + 300.
    const { g } = painted(model([stream(0, 's')], [[]], { selection: [400, 600] }));
    const fill = g.calls('fillRect').find((c) => c.fillStyle === SELECTION_FILL);
    const line = g.calls('strokeRect').find((c) => c.strokeStyle === SELECTION_LINE);
    expect(fill?.args).toEqual([430, 0, 100, HEIGHT]);
    expect(line?.args).toEqual([430, 0, 100, HEIGHT]);
  });

  it('a highlighted span is at least 2 px wide; outside the statistics range is greyed', () => {
    const m = model([stream(0, 's')], [[]], { highlight: [ORIGIN + 100n, ORIGIN + 100n], range: [ORIGIN + 300n, ORIGIN + 800n] });
    const { g } = painted(m);
    expect(g.calls('fillRect').filter((c) => c.fillStyle === HIGHLIGHT_FILL).map((c) => c.args)).toEqual([[280, 0, 2, HEIGHT]]);
    // Greyed: from the plot's left (230) to 300 ns (380), and from 800 ns (630) to the right edge (730).
    expect(g.calls('fillRect').filter((c) => c.fillStyle === RANGE_SHADE).map((c) => c.args)).toEqual([
      [230, 0, 150, HEIGHT],
      [630, 0, 100, HEIGHT],
    ]);
  });

  it('an open range side greys nothing on that side', () => {
    const { g } = painted(model([stream(0, 's')], [[]], { range: [null, ORIGIN + 800n] }));
    expect(g.calls('fillRect').filter((c) => c.fillStyle === RANGE_SHADE).map((c) => c.args)).toEqual([[630, 0, 100, HEIGHT]]);
  });

  it('the selected event and its linked ones are outlined, linked ones counted when in the plot', () => {
    const event = (track: number, start: number, end: number) => ({ track, event: 0, start: ORIGIN + BigInt(start), end: ORIGIN + BigInt(end), lane: 0, kind: SLICE_KINDS.indexOf('api'), name: 'e' });
    const related: TimelineRelated = { selected: event(0, 100, 200), related: [{ ...event(1, 300, 400), kind: 0 }, { ...event(1, 2000, 2100), kind: 0 }] };
    const { g, counts } = painted(model([stream(0, 'api'), stream(1, 'stream')], [[], []], { related }));
    // Track 1 follows track 0 (16 px lane + 4 px gap): lane top 18 + 20 = 38, y = 24 + 38 + 1 = 63.
    // Outlines are 1 px outside the event's box: [300, 400] -> x 380..430 -> (379, 62, 52, 16).
    const selfOutline = g.calls('strokeRect').find((c) => c.strokeStyle === PICKED_COLOR);
    expect(selfOutline?.args).toEqual([279, SLICE_Y - 1, 52, 16]);
    expect(g.calls('strokeRect').filter((c) => c.strokeStyle === '#d6336c')[0].args).toEqual([379, 62, 52, 16]);
    expect(counts.related).toBe(1); // the second starts at 2000 ns, x = 1230: outside
  });
});

describe('timeline paint: rows, labels and axis', () => {
  it('draws the group heading, the track label and the row band of a row in view', () => {
    const { g } = painted(model([stream(0, 'Stream 7')], [[]], { groupShare: new Map([['PPU 0', 0.5]]) }));
    const texts = g.calls('fillText');
    // Heading at the row's head top 0: y = 24 + 18 / 2; label in the lane's middle: 24 + 18 + 8.
    expect(texts.find((c) => c.fillStyle === COLORS.text)?.args).toEqual(['PPU 0 — 50.0%', 6, 33]);
    expect(texts.find((c) => c.fillStyle === COLORS.text3)?.args).toEqual(['Stream 7', 14, 50]);
    expect(g.calls('fillRect').find((c) => c.fillStyle === COLORS.rowAlt)?.args).toEqual([230, 42, 500, 16]);
  });

  it('cuts a long track label to the label column', () => {
    const label = 'x'.repeat(40);
    const { g } = painted(model([stream(0, label)], [[]]));
    // Room 230 - 6 - 14 = 210 px: 34 letters and the ellipsis (210 px).
    expect(g.calls('fillText').find((c) => c.fillStyle === COLORS.text3)?.args[0]).toBe('x'.repeat(34) + '…');
  });

  it('paints only the rows in view, shifted up by the scroll', () => {
    // Two groups: rows at layout tops 18 and 18 + 16 + 4 + 18 = 56. Scrolled 50 px down, painting
    // 40 px of rows (height 64): only the second shows, its lane at 24 + 56 - 50 = 30.
    const tracks = [stream(0, 'first', 'A'), stream(1, 'second', 'B')];
    const { g, counts } = painted(
      model(tracks, [[{ start: 0, end: 100, name: 'a' }], [{ start: 0, end: 100, name: 'b' }]], { scrollTop: 50, height: 64 }),
    );
    expect(sliceFills(g).map((c) => c.args)).toEqual([[230, 31, 50, 14]]);
    expect(counts.slices).toBe(1);
    expect(g.calls('fillText').filter((c) => c.fillStyle === COLORS.text3).map((c) => c.args[0])).toEqual(['second']);
  });

  it('the axis: a tick every 500 ns for a 1000 ns window on 500 px, labelled in µs', () => {
    // About 110 px apart: 1000 / 500 * 110 = 220 ns, rounded up to 500 ns: ticks at 0, 500 and 1000 ns.
    const { g } = painted(model([stream(0, 's')], [[]]));
    const tickLabels = g.calls('fillText').filter((c) => c.fillStyle === COLORS.text2);
    expect(tickLabels.map((c) => c.args)).toEqual([
      ['+0.0 µs', 233, 12],
      ['+0.5 µs', 483, 12],
      ['+1.0 µs', 733, 12],
    ]);
    expect(g.calls('fillRect').find((c) => c.fillStyle === COLORS.subtle)?.args).toEqual([0, 0, 730, 24]);
  });

  it('the axis counts from the time zero: the capture start 250 ns before the origin puts the ticks at round times since it', () => {
    // Offsets 0–1000 are 250–1250 ns since the zero; a 500 ns step (as above) ticks at 500 and 1000 ns since
    // the zero, which are offsets 250 and 750: x = 230 + 250 / 2 = 355 and 230 + 750 / 2 = 605, labels 3 px right.
    const { g } = painted(model([stream(0, 's')], [[]], { zero: ORIGIN - 250n }));
    const tickLabels = g.calls('fillText').filter((c) => c.fillStyle === COLORS.text2);
    expect(tickLabels.map((c) => c.args)).toEqual([
      ['+0.5 µs', 358, 12],
      ['+1.0 µs', 608, 12],
    ]);
  });

  it('clips the rows to the plot: slices never over the labels or the axis', () => {
    const { g } = painted(model([stream(0, 's')], [[{ start: -100, end: 100, name: 'across' }]]));
    const rects = g.calls('rect').map((c) => c.args);
    expect(rects).toEqual([
      [0, 24, 730, HEIGHT - 24],
      [230, 24, 500, HEIGHT - 24],
    ]);
    // The slice is filled after the second clip (to the plot) and before the restore that ends it.
    const plotClipAt = g.commands.filter((c) => c.op === 'clip').map((c) => g.commands.indexOf(c))[1];
    const fillAt = g.commands.indexOf(sliceFills(g)[0]);
    expect(fillAt).toBeGreaterThan(plotClipAt);
    expect(fillAt).toBeLessThan(g.commands.findIndex((c) => c.op === 'restore'));
  });
});

describe('timeline paint: counters', () => {
  it('draws a step chart up to each step\'s max (lighter) and min, scaled to the axis max, until the events\' end', () => {
    const counter: TimelineTrackInfo = { id: 0, group: 'PPU 0', label: 'Memory in use', lanes: 1, events: 2, counter: { unit: 'B', integer: true, max: 100n } };
    const m = model([counter], [[]]);
    m.slices!.counters = [{ id: 0, integer: true, time: BigInt64Array.from([ORIGIN, ORIGIN + 500n]), min: BigInt64Array.from([20n, 100n]), max: BigInt64Array.from([50n, 100n]) }];
    const { g, counts } = painted(m);
    // A counter row is 30 px tall at layout top 18: its base at 24 + 18 + 30 - 1 = 71, 27 px of chart.
    // Step 0 from 230 to 480 (500 ns): max 50 -> 13.5 px, min 20 -> 5.4 px.
    // Step 1 from 480 to the events' end (1000 ns, 730): 100 -> 27 px.
    const fills = g.calls('fillRect').filter((c) => c.fillStyle === COUNTER_COLOR).map((c) => [c.args, c.globalAlpha]);
    expect(fills).toEqual([
      [[230, 57.5, 250, 13.5], 0.45],
      [[230, 71 - 5.4, 250, 5.4], 1],
      [[480, 44, 250, 27], 0.45],
      [[480, 44, 250, 27], 1],
    ]);
    expect(counts.counterSteps).toBe(2);
  });
});

import { describe, expect, it } from 'vitest';
import type { CounterSteps, TrackSlices } from '../../web/src/engine/timeline_types';
import {
  MEMCPY_COLORS,
  memcpyColor,
  clampViewport,
  COUNTER_HEIGHT,
  counterValueText,
  filterTimeOf,
  groupLabel,
  shareText,
  stepAt,
  stepText,
  trackLabel,
  layoutTracks,
  rowsIn,
  tracksToFetch,
  LANE_HEIGHT,
  GROUP_HEADING,
  CONTEXT_HEADING,
  MIN_SPAN,
  panBy,
  sliceAt,
  tickLabel,
  axisTicks,
  ticks,
  zoomAround,
  sourceEventOf,
  withShares,
  displayOrder,
  mayGroupKernels,
} from '../../web/src/lib/timeline';
import { takeTimelineRelated } from '../../web/src/engine/timeline_api';
import { jumpWindow } from '../../web/src/components/TimelineRelated';

describe('memcpy colours', () => {
  it('tell the directions apart by the name the engine gives a memcpy', () => {
    expect(memcpyColor('Memcpy HtoD (device)')).toBe(MEMCPY_COLORS.HtoD);
    expect(memcpyColor('Memcpy DtoH (pinned)')).toBe(MEMCPY_COLORS.DtoH);
    expect(memcpyColor('Memcpy PtoP')).toBe(MEMCPY_COLORS.PtoP);
    expect(new Set(Object.values(MEMCPY_COLORS)).size).toBe(5);
    expect(memcpyColor('Memcpy Unified (device)')).toBeUndefined();
    expect(memcpyColor('gemm HtoD')).toBeUndefined();
  });
});

describe('viewport', () => {
  const extent = 1_000_000; // 1 ms of events
  it('zooms around the pointer: the time under it stays put', () => {
    const v = zoomAround({ from: 0, to: 1_000_000 }, 0.25, 0.5, extent);
    expect(v).toEqual({ from: 125_000, to: 625_000 }); // 250 us stays at a quarter
    expect(v.from + (v.to - v.from) * 0.25).toBe(250_000);
  });
  it('never narrower than MIN_SPAN, never far outside the events', () => {
    const v = zoomAround({ from: 500_000, to: 500_200 }, 0.5, 0.01, extent);
    expect(v.to - v.from).toBe(MIN_SPAN);
    expect(clampViewport({ from: -5e6, to: 9e6 }, extent)).toEqual({ from: -50_000, to: 1_050_000 });
  });
  it('pans by a fraction of the width and stops at the margin', () => {
    expect(panBy({ from: 100_000, to: 200_000 }, 0.5, extent)).toEqual({ from: 150_000, to: 250_000 });
    expect(panBy({ from: 0, to: 100_000 }, -10, extent)).toEqual({ from: -50_000, to: 50_000 });
  });
});

describe('axis', () => {
  it('puts ticks at 1-2-5 steps about 110 px apart', () => {
    // 1 ms over 1100 px: 100 us a tick.
    expect(ticks({ from: 0, to: 1_000_000 }, 1100)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => k * 100_000));
    // 3 ms over 1100 px: raw 300 us -> 500 us.
    expect(ticks({ from: 250_000, to: 3_250_000 }, 1100)).toEqual([500_000, 1_000_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000]);
  });
  it('labels in the unit and with the digits of the tick step', () => {
    expect(tickLabel(1_500_000, 500_000)).toBe('+1.5 ms');
    expect(tickLabel(2_000_000_000, 2_000_000_000)).toBe('+2 s');
    expect(tickLabel(250_000, 50_000)).toBe('+250 µs');
    expect(tickLabel(300_000, 100_000)).toBe('+0.3 ms');
    expect(tickLabel(-400, 100)).toBe('-0.4 µs');
    expect(tickLabel(-40, 10)).toBe('-40 ns');
  });
  it('ticks at round times since the time zero, drawn at their offsets from the origin', () => {
    // The origin (first event) 156.2 ms after the capture start; the window 0–3 ms past it is 156.2–159.2 ms
    // since the zero. 3 ms over 1100 px: a 500 us step, so ticks at 156.5, 157.0, ... 159.0 ms since the zero,
    // at offsets 0.3, 0.8, ... 2.8 ms.
    const t = axisTicks({ from: 0, to: 3_000_000 }, 1100, 156_200_000);
    expect(t.offsets).toEqual([300_000, 800_000, 1_300_000, 1_800_000, 2_300_000, 2_800_000]);
    expect(t.labels).toEqual(['+156.5 ms', '+157.0 ms', '+157.5 ms', '+158.0 ms', '+158.5 ms', '+159.0 ms']);
    // No shift: the plain ticks.
    expect(axisTicks({ from: 0, to: 1_000_000 }, 1100, 0).labels[1]).toBe('+0.1 ms');
  });
});

describe('layout and hit testing', () => {
  it('stacks tracks under a heading per group', () => {
    const { rows, height } = layoutTracks([
      { id: 0, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 3 },
      { id: 1, group: 'PPU 0', label: 'Stream 13', lanes: 2, events: 3 },
      { id: 2, group: 'Process 1', label: 'Thread 1 HGTX', lanes: 3, events: 3 },
    ]);
    expect(rows.map((r) => [r.top, r.height, r.groupStart])).toEqual([
      [GROUP_HEADING, LANE_HEIGHT, true],
      [GROUP_HEADING + LANE_HEIGHT + 4, 2 * LANE_HEIGHT, false],
      [2 * GROUP_HEADING + 3 * LANE_HEIGHT + 8, 3 * LANE_HEIGHT, true],
    ]);
    expect(height).toBe(2 * GROUP_HEADING + 6 * LANE_HEIGHT + 12);
  });
  it('puts a heading before each context of a group, its first stream under it', () => {
    const { rows, height } = layoutTracks([
      { id: 0, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 1, context: 'Context 1' },
      { id: 1, group: 'PPU 0', label: 'Stream 8', lanes: 1, events: 1, context: 'Context 1' },
      { id: 2, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 1, context: 'Context 2' },
      { id: 3, group: 'PPU 0', label: 'PCCL kernels', lanes: 1, events: 1, context: '' },
      { id: 4, group: 'PPU 1', label: 'Stream 4', lanes: 1, events: 1 },
    ]);
    const L = LANE_HEIGHT, G = GROUP_HEADING, C = CONTEXT_HEADING;
    expect(rows.map((r) => [r.headTop, r.top, r.groupStart, r.contextStart])).toEqual([
      [0, G + C, true, true],
      [G + C + L + 4, G + C + L + 4, false, false],
      [G + C + 2 * (L + 4), G + 2 * C + 2 * (L + 4), false, true],
      [G + 2 * C + 3 * (L + 4), G + 2 * C + 3 * (L + 4), false, false],
      [G + 2 * C + 4 * (L + 4), 2 * G + 2 * C + 4 * (L + 4), true, false],
    ]);
    expect(height).toBe(2 * G + 2 * C + 5 * (L + 4));
    // A context's heading shows its first stream.
    expect(rowsIn(rows, rows[2].headTop, rows[2].headTop + 1).map((r) => r.track.id)).toEqual([2]);
  });
  it('finds the rows a vertical span shows, as a walk over every row would', () => {
    // 40 tracks in groups of 3, lanes 1-4 and a counter every fifth.
    const { rows, height } = layoutTracks(
      Array.from({ length: 40 }, (_, i) => ({
        id: i,
        group: `G${Math.floor(i / 3)}`,
        label: `t${i}`,
        lanes: 1 + (i % 4),
        events: 1,
        ...(i % 5 === 4 ? { counter: { unit: 'B', integer: true, max: 1n } } : {}),
      })),
    );
    const walk = (top: number, bottom: number) =>
      rows.filter((r) => r.top - (r.groupStart ? GROUP_HEADING : 0) < bottom && r.top + r.height > top).map((r) => r.track.id);
    for (let top = -50; top < height + 50; top += 7) {
      for (const span of [1, 13, 100, 400]) expect(rowsIn(rows, top, top + span).map((r) => r.track.id)).toEqual(walk(top, top + span));
    }
    // A group's heading shows its first row.
    expect(rowsIn(rows, 0, 1).map((r) => r.track.id)).toEqual([0]);
  });
  it('asks for the tracks of three screens, the same set within one screen', () => {
    const { rows } = layoutTracks(Array.from({ length: 100 }, (_, i) => ({ id: i, group: 'P', label: `t${i}`, lanes: 1, events: 1 })));
    // Rows of 16 px every 20 px from 18 px: a screen of 200 px holds 10.
    const a = tracksToFetch(rows, 410, 200); // screen 2: rows over [200, 800)
    expect(a.ids).toEqual(rowsIn(rows, 200, 800).map((r) => r.track.id));
    expect(a.ids[0]).toBe(9); // [198, 214)
    expect(a.ids.at(-1)).toBe(39); // [798, 814)
    expect(tracksToFetch(rows, 599, 200).key).toBe(a.key);
    expect(tracksToFetch(rows, 600, 200).key).not.toBe(a.key);
    expect(tracksToFetch(rows, 0, 200).ids[0]).toBe(0); // the first screen: none above
  });
  it('finds the slice under the pointer on its lane, within 2 px', () => {
    const origin = 10n ** 18n; // epoch-like: offsets stay exact
    const s: TrackSlices = {
      id: 0,
      start: BigInt64Array.from([origin + 100n, origin + 500n, origin + 100n]),
      end: BigInt64Array.from([origin + 200n, origin + 501n, origin + 900n]),
      lane: Uint16Array.from([0, 0, 1]),
      kind: Uint8Array.from([0, 0, 5]),
      count: Uint32Array.from([1, 1, 1]),
      event: Uint32Array.from([0, 1, 2]),
      name: Uint32Array.from([0, 1, 2]),
    };
    const toPx = (offset: number) => offset; // 1 ns a pixel
    expect(sliceAt(s, 0, 150, toPx, origin)).toBe(0);
    expect(sliceAt(s, 0, 502, toPx, origin)).toBe(1); // a 1 ns slice is 1 px wide, 1 px away
    expect(sliceAt(s, 0, 350, toPx, origin)).toBe(-1);
    expect(sliceAt(s, 1, 350, toPx, origin)).toBe(2);
  });
  it('turns a span into --filter-time from the capture start', () => {
    expect(filterTimeOf(1_000_000_123n, 1_000_500_000n, 1_000_000_000n)).toBe('123/500000');
    expect(filterTimeOf(5n, 9n, null)).toBe('5/9');
  });
});

describe('linked events (timelineRelated)', () => {
  it('decodes the envelope exactly: times past 2^53, names from the pool', () => {
    const big = 9_007_199_254_740_993n; // 2^53 + 1: a double would round it
    const bytes = (v: bigint[]) => new Uint8Array(new BigInt64Array(v).buffer);
    const r = takeTimelineRelated({
      ok: true,
      selected: { track: 3, event: 7, start: big, end: big + 10n, lane: 0, kind: 3, name: 'hgLaunchKernel' },
      related: {
        track: new Uint32Array([0, 1]),
        event: new Uint32Array([5, 9]),
        start: bytes([big + 100n, big + 200n]),
        end: bytes([big + 150n, big + 260n]),
        lane: new Uint16Array([0, 1]),
        kind: new Uint8Array([0, 1]),
        name: new Uint32Array([1, 0]),
      },
      textPool: new TextEncoder().encode('Memcpy HtoD (device)\0gemm'),
    });
    expect(r.selected).toEqual({ track: 3, event: 7, start: big, end: big + 10n, lane: 0, kind: 3, name: 'hgLaunchKernel' });
    expect(r.related).toEqual([
      { track: 0, event: 5, start: big + 100n, end: big + 150n, lane: 0, kind: 0, name: 'gemm' },
      { track: 1, event: 9, start: big + 200n, end: big + 260n, lane: 1, kind: 1, name: 'Memcpy HtoD (device)' },
    ]);
  });
  it('an engine error is thrown as its one line', () => {
    expect(() => takeTimelineRelated({ ok: false, error: 'timeline: no track 99' })).toThrow('timeline: no track 99');
  });
  it('a jump shows the event in the middle third, at least 2 us across', () => {
    const e = { track: 0, event: 0, start: 1_000_500n, end: 1_000_800n, lane: 0, kind: 0, name: 'k' };
    expect(jumpWindow(e, 1_000_000n)).toEqual({ from: -500, to: 1800 });
    expect(jumpWindow({ ...e, end: 1_010_500n }, 1_000_000n)).toEqual({ from: -9500, to: 20_500 });
  });
});

describe('labels: busy shares and counters', () => {
  it('a track and a group show their share of the parent with one decimal', () => {
    expect(shareText(30 / 35)).toBe('85.7%');
    expect(trackLabel({ id: 0, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 2, share: 10 / 35 })).toBe('Stream 7 — 28.6%');
    expect(trackLabel({ id: 0, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 2 })).toBe('Stream 7');
    expect(groupLabel('PPU 1', 60 / 95)).toBe('PPU 1 — 63.2%');
    expect(groupLabel('PPU 1', null)).toBe('PPU 1');
  });
  it('a counter shows its axis max and unit; bytes stay exact', () => {
    const memory = { id: 1, group: 'PPU 0', label: 'Memory in use', lanes: 1, events: 0, share: null };
    expect(trackLabel({ ...memory, counter: { unit: 'B', integer: true, max: 1536n } })).toBe('Memory in use · max 1.5 KiB');
    expect(trackLabel({ ...memory, label: 'util', counter: { unit: '%', integer: false, max: 75.5 } })).toBe('util · max 75.5 %');
    expect(counterValueText(9007199254740993n, 'B')).toBe('9\u202f007\u202f199\u202f254\u202f740\u202f993 B (8192.0 TiB)');
    expect(counterValueText(150n, 'B')).toBe('150 B');
    expect(counterValueText(1.7e9, 'cycle/second')).toBe('1.700e+9 cycle/second');
    expect(counterValueText(Number.NaN, '%')).toBe('no value');
  });
  it('a counter row is taller than a lane', () => {
    const { rows } = layoutTracks([{ id: 0, group: 'PPU 0', label: 'm', lanes: 1, events: 0, counter: { unit: 'B', integer: true, max: 1n } }]);
    expect(rows[0].height).toBe(COUNTER_HEIGHT);
  });
  it('finds the step in force at a time and says its value', () => {
    const s: CounterSteps = {
      id: 0,
      integer: true,
      time: new BigInt64Array([5n, 40n]),
      min: new BigInt64Array([50n, 50n]),
      max: new BigInt64Array([150n, 50n]),
    };
    expect([stepAt(s, 4n), stepAt(s, 5n), stepAt(s, 39n), stepAt(s, 40n), stepAt(s, 1000n)]).toEqual([-1, 0, 0, 1, 1]);
    expect(stepText(s, 0, 'B')).toBe('50 B – 150 B (merged at this zoom)');
    expect(stepText(s, 1, 'B')).toBe('50 B');
    const d: CounterSteps = { id: 1, integer: false, time: new BigInt64Array([0n]), min: new Float64Array([NaN]), max: new Float64Array([NaN]) };
    expect(stepText(d, 0, '%')).toBe('no value');
    // In the interface's language: its words, the values as they are.
    const zh = { noValue: '无值', merged: (range: string) => `${range}（此缩放级别下合并）` };
    expect(stepText(s, 0, 'B', zh)).toBe('50 B – 150 B（此缩放级别下合并）');
    expect(stepText(d, 0, '%', zh)).toBe('无值');
  });
});

describe('[All Streams] rows and shares inside a range', () => {
  // Tracks 1 (3 events) and 2 (2 events) merged by track 0.
  const tracks = [
    { id: 0, group: 'PPU 0', label: '[All Streams]', lanes: 2, events: 0, sources: [1, 2] },
    { id: 1, group: 'PPU 0', label: 'Stream 7', lanes: 1, events: 3 },
    { id: 2, group: 'PPU 0', label: 'Stream 8', lanes: 1, events: 2 },
  ];
  const trackOf = (id: number) => tracks[id];
  it('maps a merged row event to its stream, one source after another', () => {
    expect(sourceEventOf(trackOf, 0, 0)).toEqual({ track: 1, event: 0 });
    expect(sourceEventOf(trackOf, 0, 2)).toEqual({ track: 1, event: 2 });
    expect(sourceEventOf(trackOf, 0, 3)).toEqual({ track: 2, event: 0 });
    expect(sourceEventOf(trackOf, 0, 4)).toEqual({ track: 2, event: 1 });
    expect(sourceEventOf(trackOf, 0, 5)).toBeNull();
    expect(sourceEventOf(trackOf, 2, 1)).toEqual({ track: 2, event: 1 });
    expect(sourceEventOf(trackOf, 2, 2)).toBeNull();
    expect(sourceEventOf(trackOf, 9, 0)).toBeNull();
  });
  it('replaces the shares with the range\'s, the capture\'s without an answer', () => {
    const info = {
      first: 0n,
      last: 100n,
      captureStart: 0n,
      tracks: tracks.map((t) => ({ ...t, share: 0.5, contextShare: null })),
      groups: [{ name: 'PPU 0', busy: 40n, share: 1 }],
    };
    expect(withShares(info, null)).toBe(info);
    const shown = withShares(info, {
      tracks: [
        { share: 1, contextShare: null },
        { share: 0.25, contextShare: null },
        { share: null, contextShare: null },
      ],
      groups: [0.75],
    });
    expect(shown.tracks.map((t) => t.share)).toEqual([1, 0.25, null]);
    expect(shown.tracks[0].sources).toEqual([1, 2]);
    expect(shown.groups).toEqual([{ name: 'PPU 0', busy: 40n, share: 0.75 }]);
    expect(trackLabel(shown.tracks[1])).toBe('Stream 7 — 25.0%');
    // An answer of another report's tracks (a count that differs) is not used.
    expect(withShares(info, { tracks: [], groups: [] })).toBe(info);
  });
});

describe('kernels grouped by base name', () => {
  // Stream 1 (id 1) has rows 4 and 3 by base name (ids in the engine's order, busiest first: 3 then 4).
  const tracks = [
    { id: 0, parent: undefined, label: '[All Streams]' },
    { id: 1, parent: undefined, label: 'Stream 7' },
    { id: 2, parent: undefined, label: 'Stream 8' },
    { id: 3, parent: 1, label: 'gemm' },
    { id: 4, parent: 1, label: 'relu' },
    { id: 5, parent: 2, label: 'copy' },
  ];
  it('puts a stream\'s rows right after it when grouped, leaves them out when not', () => {
    expect(displayOrder(tracks, true).map((t) => t.id)).toEqual([0, 1, 3, 4, 2, 5]);
    expect(displayOrder(tracks, false).map((t) => t.id)).toEqual([0, 1, 2]);
  });
  it('asks only for rows with events of their own', () => {
    expect(mayGroupKernels({ events: 10 })).toBe(true);
    expect(mayGroupKernels({ events: 0 })).toBe(false);
    expect(mayGroupKernels({ events: 0, sources: [1, 2] })).toBe(false);
    expect(mayGroupKernels({ events: 5, parent: 1 })).toBe(false);
    expect(mayGroupKernels({ events: 5, counter: { unit: 'B', integer: true, max: 1n } })).toBe(false);
    expect(mayGroupKernels(undefined)).toBe(false);
  });
});

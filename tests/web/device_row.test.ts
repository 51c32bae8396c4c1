// The PPU's device row in the page (lib/device_row.ts): its label in both
// languages, a memcpy slice's memory kinds, where it is drawn among its
// PPU's rows, and its pageable copies' pale lower half, against values
// worked out by hand.
import { describe, expect, it } from 'vitest';
import type { TimelineTrackInfo, TimelineWindowSlices } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { MEM_KINDS, PAGEABLE_VEIL, deviceRowLabel, isPageable, memKindsOf, withDeviceRowLabels } from '../../web/src/lib/device_row';
import { MEMCPY_COLORS, displayOrder, trackLabel, withShares } from '../../web/src/lib/timeline';
import { paint } from '../../web/src/lib/timeline_paint';
import { messages } from '../../web/src/i18n/messages';
import { PaintRecorder } from './paint_recorder';
import { PAINT_ORIGIN, paintModel } from './paint_model';

const row = (id: number, label: string, over: Partial<TimelineTrackInfo> = {}): TimelineTrackInfo => ({ id, group: 'PPU 0', label, lanes: 1, events: 3, ...over });

describe('device row: words', () => {
  it('says each half\'s share of the PPU\'s busy time, in English and Chinese', () => {
    const t = { kernelShare: 35 / 65, memoryShare: 30 / 65 };
    expect(deviceRowLabel(t, messages.en)).toBe('Device — kernels 53.8% · memory 46.2%');
    expect(deviceRowLabel(t, messages.zh)).toBe('设备 — kernel 53.8% · 内存操作 46.2%');
    expect(deviceRowLabel({ kernelShare: null, memoryShare: null }, messages.en)).toBe('Device');
  });

  it('replaces the engine\'s label and drops the row\'s own share (100% of its PPU by construction)', () => {
    const tracks = [row(0, 'Stream 7', { share: 0.5 }), row(1, 'Device', { deviceRow: true, sources: [0], share: 1, kernelShare: 0.25, memoryShare: 0.5, events: 0 })];
    const shown = withDeviceRowLabels(tracks, messages.en);
    expect(shown.map(trackLabel)).toEqual(['Stream 7 — 50.0%', 'Device — kernels 25.0% · memory 50.0%']);
    expect(withDeviceRowLabels([tracks[0]], messages.en)[0]).toBe(tracks[0]); // nothing to do: the same objects
  });

  it('takes a range\'s halves from timelineShares', () => {
    const info = { first: 0n, last: 1n, captureStart: null, tracks: [row(0, 'Device', { deviceRow: true, sources: [], kernelShare: 1, memoryShare: 0 })] };
    const s = withShares(info, { tracks: [{ share: 1, contextShare: null, kernelShare: 0.2, memoryShare: 0.7 }], groups: [] });
    expect(s.tracks[0].kernelShare).toBe(0.2);
    expect(s.tracks[0].memoryShare).toBe(0.7);
  });

  it('reads a memcpy\'s memory kinds from its byte: source << 4 | destination', () => {
    expect(memKindsOf(0)).toBeNull();
    expect(memKindsOf(0x13)).toEqual({ src: 1, dst: 3 });
    expect(MEM_KINDS[1]).toBe('Pageable');
    expect(MEM_KINDS[2]).toBe('Pinned');
    expect(isPageable(0x13)).toBe(true); // Pageable -> Device
    expect(isPageable(0x31)).toBe(true); // Device -> Pageable
    expect(isPageable(0x23)).toBe(false); // Pinned -> Device
    expect(isPageable(0x32)).toBe(false);
    expect(isPageable(0)).toBe(false);
  });
});

describe('device row: order', () => {
  it('follows the last of its sources (and that row\'s rows by base name), not its id', () => {
    const tracks = [
      row(0, '[All Streams]', { sources: [1, 2], events: 0 }),
      row(1, 'Stream 7'),
      row(2, 'Stream 8'),
      row(3, 'PCCL kernels'),
      row(4, 'Memory in use'),
      row(5, 'Stream 4', { group: 'PPU 1' }),
      row(6, 'Device', { deviceRow: true, sources: [1, 2, 3], events: 0 }),
      row(7, 'Device', { group: 'PPU 1', deviceRow: true, sources: [5], events: 0 }),
      row(8, 'gemm', { parent: 3 }),
    ];
    expect(displayOrder(tracks, false).map((t) => t.id)).toEqual([0, 1, 2, 3, 6, 4, 5, 7]);
    expect(displayOrder(tracks, true).map((t) => t.id)).toEqual([0, 1, 2, 3, 8, 6, 4, 5, 7]);
  });
});

describe('device row: paint', () => {
  // One group heading (18 px) then the row: lane 0 at y 24 + 18 + 1 = 43, lane 1 at 59; a 500 px plot over 0–1000 ns.
  const ORIGIN = PAINT_ORIGIN;
  const device = row(0, 'Device', { deviceRow: true, sources: [], lanes: 2, events: 0 });
  const names = ['k', 'Memcpy HtoD (device)', 'Memcpy DtoH (pinned)'];
  const slices: TimelineWindowSlices = {
    names,
    tracks: [
      {
        id: 0,
        start: BigInt64Array.from([0n, 100n, 300n], (v) => ORIGIN + v),
        end: BigInt64Array.from([200n, 200n, 400n], (v) => ORIGIN + v),
        lane: Uint16Array.from([0, 1, 1]),
        kind: Uint8Array.from([SLICE_KINDS.indexOf('kernel'), SLICE_KINDS.indexOf('memcpy'), SLICE_KINDS.indexOf('memcpy')]),
        count: Uint32Array.from([1, 1, 1]),
        event: Uint32Array.from([0, 1, 2]),
        name: Uint32Array.from([0, 1, 2]),
        memKind: Uint8Array.from([0, 0x13, 0x32]), // Pageable -> Device; Device -> Pinned
      },
    ],
  };
  const m = paintModel([device], slices);

  it('draws kernels on the upper lane, copies on the lower in their direction\'s colour, a pageable one with a pale lower half', () => {
    const g = new PaintRecorder();
    const counts = paint(g, m);
    expect(counts.slices).toBe(3);
    const fills = g.calls('fillRect').filter((c) => (c.args[1] as number) >= 43 && (c.args[0] as number) >= 230);
    const at = (fill: string) => fills.filter((c) => c.fillStyle === fill).map((c) => c.args);
    expect(at(MEMCPY_COLORS.HtoD)).toEqual([[280, 59, 50, 14]]); // offset 100..200 on lane 1
    expect(at(MEMCPY_COLORS.DtoH)).toEqual([[380, 59, 50, 14]]);
    // The veil: the HtoD copy's lower half (7 px from y 59 + 7), the pinned DtoH none.
    expect(at(PAGEABLE_VEIL)).toEqual([[280, 66, 50, 7]]);
    expect(fills.some((c) => c.args[1] === 43 && c.args[0] === 230 && c.args[2] === 100)).toBe(true); // the kernel, lane 0
  });
});

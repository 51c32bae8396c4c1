// The graph rows in the page (lib/graph_rows.ts): their label in both
// languages, a launch's lines, where they are drawn (after their stream and
// its kernel rows, before the next row and the device row), and that they
// are no track of their own in the toolbar's count, against values worked
// out by hand.
import { describe, expect, it } from 'vitest';
import type { TimelineTrackInfo } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { graphLaunchLines, graphRowLabel, isGraphRow, placeGraphRows, withGraphRowLabels } from '../../web/src/lib/graph_rows';
import { displayOrder, trackLabel, withShares } from '../../web/src/lib/timeline';
import { SLICE_COLORS } from '../../web/src/lib/timeline_paint';
import { messages } from '../../web/src/i18n/messages';

const row = (id: number, label: string, over: Partial<TimelineTrackInfo> = {}): TimelineTrackInfo => ({ id, group: 'PPU 0', label, lanes: 1, events: 3, ...over });

const notes = {
  correlationId: new BigInt64Array([590n, 1141n]),
  busy: new BigInt64Array([1_575_504n, 1_000n]),
  kernels: new Uint32Array([6, 1]),
  memcpys: new Uint32Array([0, 1]),
  memsets: new Uint32Array([0, 0]),
};
const graphRow = (id: number, graphOf: number, over: Partial<TimelineTrackInfo> = {}) =>
  row(id, 'Graph 1 → exec 2', { graphOf, graph: 1, exec: 2, events: 2, graphNotes: notes, ...over });

describe('graph rows: words', () => {
  it('labels a row by its graph and exec, in English and Chinese', () => {
    const t = graphRow(5, 1);
    expect(graphRowLabel(t, messages.en)).toBe('Graph 1 → exec 2');
    expect(graphRowLabel(t, messages.zh)).toBe('图 1 → 可执行图 2');
    const unknown = graphRow(6, 1, { graph: null, exec: 9, label: 'Graph exec 9' });
    expect(graphRowLabel(unknown, messages.en)).toBe('Graph exec 9');
    expect(graphRowLabel(unknown, messages.zh)).toBe('可执行图 9');
    expect(graphRowLabel(row(0, 'Stream 7'), messages.zh)).toBe('Stream 7'); // not a graph row
  });

  it('replaces the engine\'s labels, keeping the share in the stream\'s style', () => {
    const tracks = [row(0, 'Stream 7', { share: 0.5 }), graphRow(1, 0, { share: 28 / 33 })];
    const zh = withGraphRowLabels(tracks, messages.zh);
    expect(zh.map(trackLabel)).toEqual(['Stream 7 — 50.0%', '图 1 → 可执行图 2 — 84.8%']);
    expect(withGraphRowLabels([tracks[0]], messages.zh)).toEqual([tracks[0]]);
    // A statistics range's share replaces the capture's.
    const info = { first: 0n, last: 1n, captureStart: null, tracks };
    const s = withShares(info, { tracks: [{ share: 0.5, contextShare: null }, { share: 16 / 21, contextShare: null }], groups: [] });
    expect(trackLabel(s.tracks[1])).toBe('Graph 1 → exec 2 — 76.2%');
  });

  it('says which launch, its nodes by kind, its busy time and its call', () => {
    const t = graphRow(5, 1);
    expect(graphLaunchLines(t, 0, 1_575_504, messages.en)).toEqual([
      'Graph 1 → exec 2: launch 1 of 2 on this stream',
      '6 nodes run: 6 kernels, 0 memcpys, 0 memsets',
      'busy 1.6 ms of its 1.6 ms span',
      'launched by the call of correlation id 590 (Go to Host API)',
    ]);
    expect(graphLaunchLines(t, 1, 2_000, messages.zh)).toEqual([
      '图 1 → 可执行图 2：此流上第 2 次启动（共 2 次）',
      '运行了 2 个节点：1 个 kernel、1 个内存拷贝、0 个内存设置',
      '在 2.0 µs 的跨度内忙碌 1.0 µs',
      '由 correlation id 为 1141 的调用启动（转到主机 API）',
    ]);
    expect(graphLaunchLines(t, 2, 1, messages.en)).toEqual([]); // past its launches
    expect(graphLaunchLines(row(0, 'Stream 7'), 0, 1, messages.en)).toEqual([]);
  });

  it('has a kind and a colour of its own', () => {
    expect(SLICE_KINDS[12]).toBe('graphLaunch'); // core TimelineKind::GraphLaunch
    expect(SLICE_COLORS.graphLaunch).toMatch(/^#/);
  });
});

describe('graph rows: where they are drawn', () => {
  // PPU 0: [All Streams] 0, streams 1 and 2, projection 3; the engine
  // appends the device row 4, stream 1's graph rows 5 (exec 2) and 6 (exec
  // 4), stream 2's 7, then stream 1's kernel rows by base name 8.
  const tracks = [
    row(0, '[All Streams]', { sources: [1, 2], events: 0 }),
    row(1, 'Stream 7'),
    row(2, 'Stream 8'),
    row(3, 'HGTX projection'),
    row(4, 'Device', { deviceRow: true, sources: [1, 2], events: 0 }),
    graphRow(5, 1),
    graphRow(6, 1, { exec: 4, graph: 3 }),
    graphRow(7, 2),
    row(8, 'k', { parent: 1, groupedBy: 'baseName' }),
  ];
  it('puts a stream\'s graph rows after it and its kernel rows, before the next stream and the device row', () => {
    expect(displayOrder(tracks, 'none').map((t) => t.id)).toEqual([0, 1, 5, 6, 2, 7, 4, 3]);
    expect(displayOrder(tracks, 'baseName').map((t) => t.id)).toEqual([0, 1, 8, 5, 6, 2, 7, 4, 3]);
    expect(displayOrder(tracks.slice(0, 5), 'none').map((t) => t.id)).toEqual([0, 1, 2, 4, 3]); // none: as before
  });

  it('places rows given in any order by id under their streams', () => {
    const ordered = [row(1, 'Stream 7'), row(2, 'Stream 8')];
    expect(placeGraphRows(ordered, [graphRow(9, 2), graphRow(7, 1), graphRow(8, 1)]).map((t) => t.id)).toEqual([1, 7, 8, 2, 9]);
    expect(placeGraphRows(ordered, [])).toBe(ordered);
  });

  it('tells a graph row from the others', () => {
    expect(isGraphRow(graphRow(5, 0))).toBe(true);
    expect(isGraphRow(row(0, 'Stream 7'))).toBe(false);
    expect(isGraphRow(undefined)).toBe(false);
  });
});

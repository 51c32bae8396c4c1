// The host rows' words (web/src/lib/host_rows.ts) against texts worked out
// by hand, in both languages.
import { describe, expect, it } from 'vitest';
import { NO_END_THREAD, type TimelineTrackInfo } from '../../web/src/engine/timeline_types';
import { messages } from '../../web/src/i18n/messages';
import { hostEventLines, isRepeatedCall, libraryOfRow, threadIdOf, withHostLabels } from '../../web/src/lib/host_rows';
import type { TimelineTrackInfo as Track } from '../../web/src/engine/timeline_types';

const T1 = 1677721701n; // pid 100, tid 101
const T2 = 1677721702n; // pid 100, tid 102
const en = messages.en;
const zh = messages.zh;

const startEnd: Pick<TimelineTrackInfo, 'hostRow' | 'hostNotes' | 'label'> = {
  label: 'HGTX start/end',
  hostRow: 'startEnd',
  hostNotes: {
    thread: new BigInt64Array([T2, T1, T1]),
    endThread: new BigInt64Array([T1, T1, NO_END_THREAD]),
    value: new BigInt64Array([]),
  },
};
const failures: Pick<TimelineTrackInfo, 'hostRow' | 'hostNotes' | 'label'> = {
  label: 'Memory allocation failures',
  hostRow: 'allocationFailures',
  hostNotes: { thread: new BigInt64Array([T1]), endThread: new BigInt64Array([]), value: new BigInt64Array([2n]) },
};

describe('host rows', () => {
  it('reads a thread id from a globalTid', () => {
    expect(threadIdOf(T1)).toBe('101');
    expect(threadIdOf((1n << 56n) | T2)).toBe('102');
  });

  it('says where a start/end range started and ended, or that it never did', () => {
    expect(hostEventLines(startEnd, 0, 'pin', en)).toEqual(['HGTX start/end range', 'Started on thread 102, ended on thread 101']);
    expect(hostEventLines(startEnd, 1, 'sync', en)).toEqual(['HGTX start/end range', 'Started and ended on thread 101']);
    expect(hostEventLines(startEnd, 2, 'ckpt', en)).toEqual([
      'HGTX start/end range',
      'Started on thread 101; never ended (still open when the capture stopped)',
    ]);
    expect(hostEventLines(startEnd, 0, 'pin', zh)).toEqual(['HGTX 起止 range', '在线程 102 开始，在线程 101 结束']);
    expect(hostEventLines(startEnd, 2, 'ckpt', zh)[1]).toBe('在线程 101 开始；未结束（采集停止时仍未结束）');
    expect(hostEventLines(startEnd, 3, 'past', en)).toEqual([]);
  });

  it('names a failed allocation, its return value and thread', () => {
    expect(hostEventLines(failures, 0, 'cudaMalloc_v3020', en)).toEqual([
      'Memory allocation failed: cudaMalloc returned 2',
      'Size: not recorded (a failed call allocates nothing)',
      'Called on thread 101',
    ]);
    expect(hostEventLines(failures, 0, 'hgMalloc', zh)[0]).toBe('内存分配失败：hgMalloc 返回 2');
    expect(isRepeatedCall(failures)).toBe(true);
    expect(isRepeatedCall(startEnd)).toBe(false);
  });

  it("names a library row's library", () => {
    const row = { label: 'Thread 25738 (python3) ACBLAS', hostRow: 'library' as const };
    expect(libraryOfRow(row.label)).toBe('ACBLAS');
    expect(hostEventLines(row, 0, 'ACBLAS:GemmEx,...', en)).toEqual(['ACBLAS library API range']);
    expect(hostEventLines(row, 0, 'ACBLAS:GemmEx,...', zh)).toEqual(['ACBLAS 库 API range']);
  });

  it('adds nothing for any other row', () => {
    expect(hostEventLines({ label: 'Thread 1 HGTX' }, 0, 'step', en)).toEqual([]);
    expect(hostEventLines(undefined, 0, 'x', en)).toEqual([]);
  });

  it("labels a process's own rows in the page's language, and leaves the others", () => {
    const track = (id: number, label: string, hostRow?: Track['hostRow']): Track => ({ id, group: 'Process 1', label, lanes: 1, events: 1, ...(hostRow ? { hostRow } : {}) });
    const info = { tracks: [track(0, 'HGTX start/end', 'startEnd'), track(1, 'Memory allocation failures', 'allocationFailures'), track(2, 'Thread 1 ACBLAS', 'library'), track(3, 'Thread 1 HGTX')] };
    expect(withHostLabels(info, en)).toBe(info);  // English: the engine's labels, the same object
    const zhInfo = withHostLabels(info, zh);
    expect(zhInfo.tracks.map((t) => t.label)).toEqual(['HGTX 起止 range', '内存分配失败', 'Thread 1 ACBLAS', 'Thread 1 HGTX']);
    expect(zhInfo.tracks[2]).toBe(info.tracks[2]);
  });
});

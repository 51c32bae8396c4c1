// The worker's report mounting: the files of each open under a directory of
// their own, mounted with WORKERFS and never copied (the engine reads an
// SQLite file ahead in large blocks itself); several reports open at once,
// each released when it is closed, a failed open releasing only its own.
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkEngineVersion,
  isOutOfMemory,
  outOfMemoryMessage,
  timelineOutOfMemoryMessage,
  ReportMounts,
  withoutMountDirs,
  type AsysEngine,
} from '../../web/src/engine/engine_api';

function fakeEngine() {
  const log: string[] = [];
  let next = 0;
  const engine: AsysEngine = {
    FS: {
      filesystems: { WORKERFS: {} },
      mkdir: (p) => log.push(`mkdir ${p}`),
      rmdir: (p) => log.push(`rmdir ${p}`),
      mount: (_t, o, p) => log.push(`mount ${o.files!.map((f) => f.name).join()} ${p}`),
      unmount: (p) => log.push(`unmount ${p}`),
    },
    apiVersion: () => 7,
    open: (paths: string[]) => {
      log.push(`open ${paths.join(' ')}`);
      if (paths.some((p) => p.endsWith('.txt'))) {
        return { ok: false, error: `${paths[0]}: not an asysrep report (not an SQLite database)` };
      }
      const summary = { path: paths.length > 1 ? `${paths[0]} (and ${paths.length - 1} more)` : paths[0] };
      return { ok: true, report: ++next, summary };
    },
    close: (report: number) => (log.push(`close ${report}`), { ok: true }),
    listRules: () => ({ ok: true, rules: [] }),
    setTimeFilter: () => ({ ok: true, window: null }),
    setRuleConfig: () => ({ ok: true }),
    checkRuleOption: () => ({ ok: true }),
    checkOption: () => ({ ok: true }),
    run: () => ({ ok: false, error: 'not here' }),
    runPaged: () => ({ ok: false, error: 'not here' }),
    pageRows: () => ({ ok: false, error: 'not here' }),
    searchRows: () => ({ ok: false, error: 'not here' }),
    keyTotals: () => ({ ok: false, error: 'not here' }),
    rowsWithKeys: () => ({ ok: false, error: 'not here' }),
    columnTotals: () => ({ ok: false, error: 'not here' }),
    timelineTracks: () => ({ ok: false, error: 'not here' }),
    timelineShares: () => ({ ok: false, error: 'not here' }),
    timelineKernelGroups: () => ({ ok: false, error: 'not here' }),
    timelineKernelRangeGroups: () => ({ ok: false, error: 'not here' }),
    timelineDeviceRows: () => ({ ok: false, error: 'not here' }),
    timelineGraphRows: () => ({ ok: false, error: 'not here' }),
    timelineWindow: () => ({ ok: false, error: 'not here' }),
    timelineRelated: () => ({ ok: false, error: 'not here' }),
    timelineFindEvent: () => ({ ok: false, error: 'not here' }),
    timelineEventRow: () => ({ ok: false, error: 'not here' }),
    timelineSelection: () => ({ ok: false, error: 'not here' }),
    eventsView: () => ({ ok: false, error: 'not here' }),
    eventsViewEvent: () => ({ ok: false, error: 'not here' }),
    eventsViewRow: () => ({ ok: false, error: 'not here' }),
    resultRowOfEvent: () => ({ ok: false, error: 'not here' }),
    runCompare: () => ({ ok: false, error: 'not here' }),
    sortOrder: () => ({ ok: false, error: 'not here' }),
    page: () => ({ ok: false, error: 'not here' }),
    render: () => ({ ok: false, error: 'not here' }),
    renderCsvRows: () => ({ ok: false, error: 'not here' }),
    renderXlsx: () => ({ ok: false, error: 'not here' }),
    release: () => ({ ok: true }),
  };
  return { engine, log };
}

const file = (name: string) => new File([new Uint8Array(4)], name);

// The 16 bytes every SQLite database starts with, written out by hand.
const SQLITE_HEAD = [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00];
const GZIP_HEAD = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0x03];

const bytesFile = (name: string, bytes: number[]) => new File([Uint8Array.from(bytes) as BlobPart], name);

/** A FileReaderSync that records every read, and file system calls that would copy a file. */
class CountingReaderSync {
  static reads: number[] = [];
  readAsArrayBuffer(blob: Blob) {
    CountingReaderSync.reads.push(blob.size);
    return new ArrayBuffer(blob.size);
  }
}

function watchCopies(engine: AsysEngine, log: string[]) {
  Object.assign(engine.FS, {
    open: (p: string) => (log.push(`create ${p}`), p),
    write: () => (log.push('write'), 0),
    close: () => log.push('close'),
  });
  (globalThis as { FileReaderSync?: unknown }).FileReaderSync = CountingReaderSync;
  CountingReaderSync.reads = [];
}

afterEach(() => {
  delete (globalThis as { FileReaderSync?: unknown }).FileReaderSync;
});

describe('ReportMounts', () => {
  it('keeps several reports open, each under its own directory, until each is closed', () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    expect(m.open(file('a.asysrep'))).toEqual({ report: 1, summary: { path: '/reports/1/a.asysrep' } });
    expect(m.open(file('b.asysrep'))).toEqual({ report: 2, summary: { path: '/reports/2/b.asysrep' } });
    m.close(1);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount a.asysrep /reports/1',
      'open /reports/1/a.asysrep',
      'mkdir /reports',
      'mkdir /reports/2',
      'mount b.asysrep /reports/2',
      'open /reports/2/b.asysrep',
      'close 1',
      'unmount /reports/1',
      'rmdir /reports/1',
    ]);
  });

  it("throws the engine's error for a foreign file and releases only its files", () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    m.open(file('a.asysrep'));
    log.length = 0;
    expect(() => m.open(file('notes.txt'))).toThrow('/reports/2/notes.txt: not an asysrep report (not an SQLite database)');
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/2',
      'mount notes.txt /reports/2',
      'open /reports/2/notes.txt',
      'unmount /reports/2',
      'rmdir /reports/2',
    ]);
    // The first report is still open: closing it releases its files.
    log.length = 0;
    m.close(1);
    expect(log).toEqual(['close 1', 'unmount /reports/1', 'rmdir /reports/1']);
  });

  it('never copies or reads a file, SQLite or trace, whatever its size', () => {
    const { engine, log } = fakeEngine();
    watchCopies(engine, log);
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    const big = bytesFile('big.asysrep', [...SQLITE_HEAD, 1, 2, 3, 4]);
    Object.defineProperty(big, 'size', { value: 3 * 1024 ** 3 }); // a 3 GiB report
    m.open(big, (loaded, total) => progress.push(loaded, total));
    m.open(bytesFile('small.asysrep', [...SQLITE_HEAD, 1, 2, 3, 4]));
    m.open(bytesFile('t.json.gz', GZIP_HEAD));
    expect(CountingReaderSync.reads).toEqual([]);
    expect(progress).toEqual([3 * 1024 ** 3, 3 * 1024 ** 3]);
    expect(log.filter((l) => l.startsWith('create') || l === 'write')).toEqual([]);
  });

  it('opens several files as one report, progress over all of them, and closes them together', () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    const ranks = [bytesFile('rank0.json.gz', GZIP_HEAD), bytesFile('rank1.json.gz', GZIP_HEAD), bytesFile('rank2.json.gz', GZIP_HEAD)];
    expect(m.open(ranks, (loaded, total) => progress.push(loaded, total))).toEqual({
      report: 1,
      summary: { path: '/reports/1/rank0.json.gz (and 2 more)' },
    });
    expect(progress).toEqual([30, 30]);
    m.close(1);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount rank0.json.gz,rank1.json.gz,rank2.json.gz /reports/1',
      'open /reports/1/rank0.json.gz /reports/1/rank1.json.gz /reports/1/rank2.json.gz',
      'close 1',
      'unmount /reports/1',
      'rmdir /reports/1',
    ]);
  });

  it('gives files of the same name names of their own', () => {
    const { engine, log } = fakeEngine();
    const mounted: { files: string[]; blobs: string[] }[] = [];
    engine.FS.mount = (_t, o, p) => {
      mounted.push({ files: (o.files ?? []).map((f) => f.name), blobs: (o.blobs ?? []).map((b) => b.name) });
      log.push(`mount ${p}`);
    };
    new ReportMounts(engine).open([file('trace.json.gz'), file('trace.json.gz'), file('trace.json.gz')]);
    expect(mounted).toEqual([{ files: ['trace.json.gz'], blobs: ['trace (2).json.gz', 'trace (3).json.gz'] }]);
    expect(log.at(-1)).toBe('open /reports/1/trace.json.gz /reports/1/trace (2).json.gz /reports/1/trace (3).json.gz');
  });

  it('a failed close keeps the files of a report the engine still holds', () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    m.open(file('a.asysrep'));
    engine.close = () => ({ ok: false, error: 'no open report with id 1' });
    log.length = 0;
    expect(() => m.close(1)).toThrow('no open report with id 1');
    expect(log).toEqual([]);
  });
});

describe('the engine version', () => {
  it('refuses an engine of another bridge version in one line', () => {
    expect(() => checkEngineVersion({ apiVersion: () => 1 })).toThrow(
      'the WebAssembly engine speaks bridge version 1, this page 10: reload the page',
    );
    expect(() => checkEngineVersion({})).toThrow('bridge version 1');
    expect(() => checkEngineVersion({ apiVersion: () => 9 })).toThrow('bridge version 9, this page 10');
    expect(() => checkEngineVersion({ apiVersion: () => 10 })).not.toThrow();
  });
});

describe('mount directories', () => {
  it('takes the mount directories out of the engine\'s paths and messages', () => {
    expect(withoutMountDirs('/reports/12/a.json.gz: truncated gzip file')).toBe('a.json.gz: truncated gzip file');
    expect(withoutMountDirs('/reports/3/workerfs/t.json.gz is a PyTorch/Kineto trace but /reports/3/a.asysrep is an asysrep report')).toBe(
      't.json.gz is a PyTorch/Kineto trace but a.asysrep is an asysrep report',
    );
    expect(withoutMountDirs('"/reports/7/a b.sqlite" (and 1 more)')).toBe('"a b.sqlite" (and 1 more)');
    expect(withoutMountDirs('/data/reports/1/x: no such file')).toBe('/data/reports/1/x: no such file'); // not ours
  });
});

describe('running out of memory', () => {
  it('recognises what the engine says when its memory runs out', () => {
    expect(isOutOfMemory('std::bad_alloc')).toBe(true);
    expect(isOutOfMemory('big.asysrep: cannot read table HGGC_KERNEL: out of memory')).toBe(true);
    expect(isOutOfMemory('RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded')).toBe(true);
    expect(isOutOfMemory('big.asysrep: table HGGC_KERNEL, column start, row 3: \'soon\' is not an integer')).toBe(false);
  });

  it('says so in one line and gives the command line to run instead', () => {
    const line = outOfMemoryMessage('big.asysrep', 'hggc_ppu_trace');
    expect(line).toBe(
      "Out of memory: hggc_ppu_trace on big.asysrep needs more than the 2 GB a browser tab's engine can use; " +
        'the command line has no such limit: asys stats -r hggc_ppu_trace big.asysrep',
    );
    expect(line).not.toContain('\n');
    expect(outOfMemoryMessage("run 2's.asysrep", 'hgtx_sum')).toMatch(/asys stats -r hgtx_sum 'run 2'\\''s\.asysrep'$/);
    expect(timelineOutOfMemoryMessage("run 2's.asysrep")).toBe(
      "Out of memory: the timeline of run 2's.asysrep needs more than the 2 GB a browser tab's engine can use; " +
        "its events are in the trace rules on the command line: asys stats -r hggc_ppu_trace,hggc_api_trace 'run 2'\\''s.asysrep'",
    );
    expect(outOfMemoryMessage('t.json.gz')).toMatch(/^Out of memory: opening t\.json\.gz .* asys stats -r RULE t\.json\.gz$/);
  });
});

// The worker's report mounting: the files of each open under a directory of
// their own, mounted with WORKERFS and never copied (the engine reads an
// SQLite file ahead in large blocks itself), one file opened with openReport,
// several with openReports, the old ones released after a successful open,
// nothing of the open report lost after a failed one.
import { afterEach, describe, expect, it } from 'vitest';
import {
  isOutOfMemory,
  outOfMemoryMessage,
  ReportMounts,
  withoutMountDirs,
  type AsysEngine,
} from '../../web/src/engine/engine_api';

function fakeEngine() {
  const log: string[] = [];
  const engine: AsysEngine = {
    FS: {
      filesystems: { WORKERFS: {} },
      mkdir: (p) => log.push(`mkdir ${p}`),
      rmdir: (p) => log.push(`rmdir ${p}`),
      mount: (_t, o, p) => log.push(`mount ${o.files!.map((f) => f.name).join()} ${p}`),
      unmount: (p) => log.push(`unmount ${p}`),
    },
    openReport: (path) => {
      log.push(`open ${path}`);
      return path.endsWith('.txt')
        ? JSON.stringify({ ok: false, error: `${path}: not an asysrep report (not an SQLite database)` })
        : JSON.stringify({ ok: true, summary: { path } });
    },
    openReports: (paths) => {
      log.push(`openReports ${paths.join(' ')}`);
      return paths.some((p) => p.endsWith('.txt'))
        ? JSON.stringify({ ok: false, error: `${paths[0]}: not a report asys can read` })
        : JSON.stringify({ ok: true, summary: { path: `${paths[0]} (and ${paths.length - 1} more)` } });
    },
    listRules: () => '[]',
    runRule: () => ({}),
    renderRule: () => '',
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
  it('mounts each report under its own directory and releases the old one', () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    expect(m.open(file('a.asysrep'))).toEqual({ path: '/reports/1/a.asysrep' });
    expect(m.open(file('b.asysrep'))).toEqual({ path: '/reports/2/b.asysrep' });
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount a.asysrep /reports/1',
      'open /reports/1/a.asysrep',
      'mkdir /reports',
      'mkdir /reports/2',
      'mount b.asysrep /reports/2',
      'open /reports/2/b.asysrep',
      'unmount /reports/1',
      'rmdir /reports/1',
    ]);
  });

  it("throws the engine's error for a foreign file and keeps the open report", () => {
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
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount big.asysrep /reports/1',
      'open /reports/1/big.asysrep',
      'mkdir /reports',
      'mkdir /reports/2',
      'mount small.asysrep /reports/2',
      'open /reports/2/small.asysrep',
      'unmount /reports/1',
      'rmdir /reports/1',
      'mkdir /reports',
      'mkdir /reports/3',
      'mount t.json.gz /reports/3',
      'open /reports/3/t.json.gz',
      'unmount /reports/2',
      'rmdir /reports/2',
    ]);
  });

  it('opens several files as one report with openReports, progress over all of them', () => {
    const { engine, log } = fakeEngine();
    watchCopies(engine, log);
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    const ranks = [bytesFile('rank0.json.gz', GZIP_HEAD), bytesFile('rank1.json.gz', GZIP_HEAD), bytesFile('rank2.json.gz', GZIP_HEAD)];
    expect(m.open(ranks, (loaded, total) => progress.push(loaded, total))).toEqual({
      path: '/reports/1/rank0.json.gz (and 2 more)',
    });
    expect(progress).toEqual([30, 30]);
    // A second open releases all three.
    m.open([bytesFile('x.json.gz', GZIP_HEAD), bytesFile('y.json.gz', GZIP_HEAD)]);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount rank0.json.gz,rank1.json.gz,rank2.json.gz /reports/1',
      'openReports /reports/1/rank0.json.gz /reports/1/rank1.json.gz /reports/1/rank2.json.gz',
      'mkdir /reports',
      'mkdir /reports/2',
      'mount x.json.gz,y.json.gz /reports/2',
      'openReports /reports/2/x.json.gz /reports/2/y.json.gz',
      'unmount /reports/1',
      'rmdir /reports/1',
    ]);
  });

  it('mounts an SQLite file and traces of one open together, and removes them together', () => {
    const { engine, log } = fakeEngine();
    watchCopies(engine, log);
    const m = new ReportMounts(engine);
    const files = [bytesFile('a.sqlite', [...SQLITE_HEAD, 1, 2, 3, 4]), bytesFile('t.json.gz', GZIP_HEAD), file('n.txt')];
    expect(() => m.open(files)).toThrow('/reports/1/a.sqlite: not a report asys can read');
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount a.sqlite,t.json.gz,n.txt /reports/1',
      'openReports /reports/1/a.sqlite /reports/1/t.json.gz /reports/1/n.txt',
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
    expect(log.at(-1)).toBe(
      'openReports /reports/1/trace.json.gz /reports/1/trace (2).json.gz /reports/1/trace (3).json.gz',
    );
  });

  it('a failed open of several files keeps the open report and releases only the new files', () => {
    const { engine, log } = fakeEngine();
    const m = new ReportMounts(engine);
    m.open(file('a.asysrep'));
    log.length = 0;
    expect(() => m.open([file('r0.json.gz'), file('notes.txt')])).toThrow('/reports/2/r0.json.gz: not a report asys can read');
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/2',
      'mount r0.json.gz,notes.txt /reports/2',
      'openReports /reports/2/r0.json.gz /reports/2/notes.txt',
      'unmount /reports/2',
      'rmdir /reports/2',
    ]);
    // The next open still releases the first report.
    log.length = 0;
    m.open(file('b.asysrep'));
    expect(log.slice(-2)).toEqual(['unmount /reports/1', 'rmdir /reports/1']);
  });

  it('refuses several files when the engine has no openReports, before touching the file system', () => {
    const { engine, log } = fakeEngine();
    delete engine.openReports;
    expect(() => new ReportMounts(engine).open([file('r0.json.gz'), file('r1.json.gz')])).toThrow('one file at a time');
    expect(log).toEqual([]);
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
    expect(outOfMemoryMessage('t.json.gz')).toMatch(/^Out of memory: opening t\.json\.gz .* asys stats -r RULE t\.json\.gz$/);
  });
});

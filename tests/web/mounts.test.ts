// The worker's report mounting: the files of each open under a directory of
// their own (an SQLite file copied into memory where FileReaderSync exists,
// anything else mounted with WORKERFS), one file opened with openReport,
// several with openReports, the old ones released after a successful open,
// nothing of the open report lost after a failed one.
import { afterEach, describe, expect, it } from 'vitest';
import {
  COPY_LIMIT,
  isSqliteHeader,
  ReportMounts,
  shouldCopy,
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

/** A Blob whose bytes a stand-in FileReaderSync can read synchronously. */
class BytesBlob extends Blob {
  constructor(readonly content: Uint8Array) {
    super([content as BlobPart]);
  }
}

class BytesFile extends File {
  constructor(
    readonly content: Uint8Array,
    name: string,
  ) {
    super([content as BlobPart], name);
  }
  override slice(start = 0, end = this.content.length): Blob {
    return new BytesBlob(this.content.slice(start, end));
  }
}

const bytesFile = (name: string, bytes: number[]) => new BytesFile(Uint8Array.from(bytes), name);

class FakeReaderSync {
  static reads: number[] = [];
  readAsArrayBuffer(blob: Blob) {
    FakeReaderSync.reads.push(blob.size);
    return blob instanceof BytesBlob ? blob.content.slice().buffer : new ArrayBuffer(blob.size);
  }
}

/** Lets `engine` copy files into memory (FS.open/write/close/unlink), logged like the rest. */
function withMemFs(engine: AsysEngine, log: string[], written: number[] = []) {
  Object.assign(engine.FS, {
    open: (p: string) => (log.push(`create ${p}`), p),
    write: (_s: unknown, b: Uint8Array, _o: number, n: number, at: number) => (written.push(at, n), n),
    close: (s: string) => log.push(`close ${s}`),
    unlink: (p: string) => log.push(`unlink ${p}`),
  });
  (globalThis as { FileReaderSync?: unknown }).FileReaderSync = FakeReaderSync;
  FakeReaderSync.reads = [];
  return written;
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

  it('copies an SQLite file into memory in slices, reporting progress, where FileReaderSync exists', () => {
    const { engine, log } = fakeEngine();
    const written = withMemFs(engine, log);
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    // 16 header bytes + 4 = 20 bytes each.
    m.open(bytesFile('a.asysrep', [...SQLITE_HEAD, 1, 2, 3, 4]), (loaded, total) => progress.push(loaded, total));
    m.open(bytesFile('b.asysrep', [...SQLITE_HEAD, 5, 6, 7, 8]));
    expect(written).toEqual([0, 20, 0, 20]);
    expect(progress).toEqual([20, 20]);
    // Per file: the 16-byte sniff, then one 16 MB slice (the whole file).
    expect(FakeReaderSync.reads).toEqual([16, 20, 16, 20]);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'create /reports/1/a.asysrep',
      'close /reports/1/a.asysrep',
      'open /reports/1/a.asysrep',
      'mkdir /reports',
      'mkdir /reports/2',
      'create /reports/2/b.asysrep',
      'close /reports/2/b.asysrep',
      'open /reports/2/b.asysrep',
      'unlink /reports/1/a.asysrep',
      'rmdir /reports/1',
    ]);
  });

  it('mounts a gzip or JSON trace with WORKERFS even where it could copy', () => {
    const { engine, log } = fakeEngine();
    const written = withMemFs(engine, log);
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    m.open(bytesFile('t.json.gz', GZIP_HEAD), (loaded, total) => progress.push(loaded, total));
    m.open(bytesFile('t.json', [...'{"traceEvents":[]}'].map((c) => c.charCodeAt(0))));
    expect(written).toEqual([]);
    expect(FakeReaderSync.reads).toEqual([10, 16]); // only the sniffs (the gzip file is 10 bytes)
    expect(progress).toEqual([10, 10]);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'mount t.json.gz /reports/1',
      'open /reports/1/t.json.gz',
      'mkdir /reports',
      'mkdir /reports/2',
      'mount t.json /reports/2',
      'open /reports/2/t.json',
      'unmount /reports/1',
      'rmdir /reports/1',
    ]);
  });

  it('mounts an SQLite file larger than COPY_LIMIT without reading it', () => {
    const { engine, log } = fakeEngine();
    withMemFs(engine, log);
    const big = bytesFile('big.sqlite', SQLITE_HEAD);
    Object.defineProperty(big, 'size', { value: COPY_LIMIT + 1 });
    new ReportMounts(engine).open(big);
    expect(FakeReaderSync.reads).toEqual([]);
    expect(log).toEqual(['mkdir /reports', 'mkdir /reports/1', 'mount big.sqlite /reports/1', 'open /reports/1/big.sqlite']);
  });

  it('opens several files as one report with openReports, progress over all of them', () => {
    const { engine, log } = fakeEngine();
    withMemFs(engine, log);
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

  it('keeps copies and the WORKERFS mount apart when an open has both, and removes all of them', () => {
    const { engine, log } = fakeEngine();
    const written = withMemFs(engine, log);
    const m = new ReportMounts(engine);
    const progress: number[] = [];
    // 20 + 10 + 18 bytes.
    const files = [
      bytesFile('a.sqlite', [...SQLITE_HEAD, 1, 2, 3, 4]),
      bytesFile('t.json.gz', GZIP_HEAD),
      bytesFile('n.txt', [...'not a report\n!!!!!'].map((c) => c.charCodeAt(0))),
    ];
    expect(() => m.open(files, (loaded, total) => progress.push(loaded, total))).toThrow(
      '/reports/1/a.sqlite: not a report asys can read',
    );
    expect(written).toEqual([0, 20]);
    expect(progress).toEqual([20, 48, 48, 48]);
    expect(log).toEqual([
      'mkdir /reports',
      'mkdir /reports/1',
      'create /reports/1/a.sqlite',
      'close /reports/1/a.sqlite',
      'mkdir /reports/1/workerfs',
      'mount t.json.gz,n.txt /reports/1/workerfs',
      'openReports /reports/1/a.sqlite /reports/1/workerfs/t.json.gz /reports/1/workerfs/n.txt',
      'unlink /reports/1/a.sqlite',
      'unmount /reports/1/workerfs',
      'rmdir /reports/1/workerfs',
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

describe('which files are copied into memory', () => {
  it('recognises the SQLite header, all 16 bytes of it', () => {
    expect(isSqliteHeader(Uint8Array.from(SQLITE_HEAD))).toBe(true);
    expect(isSqliteHeader(Uint8Array.from([...SQLITE_HEAD, 0x10, 0x00]))).toBe(true); // more bytes after it
    expect(isSqliteHeader(Uint8Array.from(SQLITE_HEAD.slice(0, 15)))).toBe(false); // no NUL: too short
    expect(isSqliteHeader(Uint8Array.from([...SQLITE_HEAD.slice(0, 15), 0x20]))).toBe(false); // "SQLite format 3 "
    expect(isSqliteHeader(Uint8Array.from([0x73, ...SQLITE_HEAD.slice(1)]))).toBe(false); // "sQLite format 3\0"
    expect(isSqliteHeader(Uint8Array.from(GZIP_HEAD))).toBe(false);
    expect(isSqliteHeader(Uint8Array.from([0x7b, 0x22, 0x73, 0x63]))).toBe(false); // '{"sc'
    expect(isSqliteHeader(new Uint8Array(0))).toBe(false);
    expect(isSqliteHeader(new Uint8Array(16))).toBe(false);
  });

  it('copies SQLite files up to COPY_LIMIT (1 GiB) and nothing else', () => {
    const head = Uint8Array.from(SQLITE_HEAD);
    expect(COPY_LIMIT).toBe(1073741824);
    expect(shouldCopy(2011136, head)).toBe(true); // an Nsight Systems export of 1.9 MiB
    expect(shouldCopy(1073741824, head)).toBe(true);
    expect(shouldCopy(1073741825, head)).toBe(false);
    expect(shouldCopy(24808, Uint8Array.from(GZIP_HEAD))).toBe(false); // a .json.gz trace
    expect(shouldCopy(500 * 1024 * 1024, Uint8Array.from([0x7b, 0x0a]))).toBe(false); // a 500 MB JSON trace
  });

  it('takes the mount directories out of the engine\'s paths and messages', () => {
    expect(withoutMountDirs('/reports/12/a.json.gz: truncated gzip file')).toBe('a.json.gz: truncated gzip file');
    expect(withoutMountDirs('/reports/3/workerfs/t.json.gz is a PyTorch/Kineto trace but /reports/3/a.asysrep is an asysrep report')).toBe(
      't.json.gz is a PyTorch/Kineto trace but a.asysrep is an asysrep report',
    );
    expect(withoutMountDirs('"/reports/7/a b.sqlite" (and 1 more)')).toBe('"a b.sqlite" (and 1 more)');
    expect(withoutMountDirs('/data/reports/1/x: no such file')).toBe('/data/reports/1/x: no such file'); // not ours
  });
});

// The worker's report mounting: each file under its own directory (WORKERFS,
// or a copy in memory where FileReaderSync exists), the old one released
// after a successful open, nothing of the open report lost after a failed one.
import { describe, expect, it } from 'vitest';
import { ReportMounts, type AsysEngine } from '../../web/src/engine/engine_api';

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
    listRules: () => '[]',
    runRule: () => ({}),
    renderRule: () => '',
  };
  return { engine, log };
}

const file = (name: string) => new File([new Uint8Array(4)], name);

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

  it('copies a file into memory in slices, reporting progress, where FileReaderSync exists', () => {
    const { engine, log } = fakeEngine();
    const written: number[] = [];
    Object.assign(engine.FS, {
      open: (p: string) => (log.push(`create ${p}`), p),
      write: (_s: unknown, b: Uint8Array, _o: number, n: number, at: number) => (written.push(at, n), n),
      close: (s: string) => log.push(`close ${s}`),
      unlink: (p: string) => log.push(`unlink ${p}`),
    });
    class FakeReaderSync {
      readAsArrayBuffer(blob: Blob) {
        return new ArrayBuffer(blob.size);
      }
    }
    const g = globalThis as { FileReaderSync?: unknown };
    g.FileReaderSync = FakeReaderSync;
    try {
      const m = new ReportMounts(engine);
      const progress: number[] = [];
      m.open(file('a.asysrep'), (loaded, total) => progress.push(loaded, total));
      m.open(file('b.asysrep'));
      expect(written).toEqual([0, 4, 0, 4]);
      expect(progress).toEqual([4, 4]);
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
    } finally {
      delete g.FileReaderSync;
    }
  });
});

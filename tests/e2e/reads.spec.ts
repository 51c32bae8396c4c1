// How the viewer reads a dropped report: nothing is copied; the engine's
// read-ahead VFS reads the File in a few large FileReaderSync calls (counted
// here in every worker: the engine's, and the one that reads ahead of it on
// a cross-origin isolated page), its tables equal the CLI's, and a later
// kernel summary reads the kernel table again in a few large reads: the
// summaries fold it as they scan it and keep no column (issue 20).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Worker } from '@playwright/test';
import { ASYS, asysOut, dropDiskFile, exportedCsv, selectRule, waitIdle, waitResult } from './helpers';

let dir = '';
let report = '';

test.beforeAll(() => {
  // ~90 MB, 470 000 kernels: more than the engine's 80 MiB block cache, so
  // a table scanned again is read from the file again (a smaller report
  // stays in the cache whole).
  dir = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-reads-'));
  report = path.join(dir, 'reads.asysrep');
  execFileSync(ASYS, ['gen', '--seed', '5', '--scale', '120', '-o', report]);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Counts the FileReaderSync reads of every worker of the page from now on:
 * the engine's, and the one that reads large files ahead of it where the
 * page is cross-origin isolated (created when a report is opened).
 */
async function countReads(page: Page): Promise<() => Promise<{ count: number; bytes: number }>> {
  const patch = (worker: Worker) =>
    worker
      .evaluate(() => {
        const g = self as unknown as {
          __reads?: { count: number; bytes: number };
          FileReaderSync: { prototype: { readAsArrayBuffer(b: Blob): ArrayBuffer } };
        };
        if (g.__reads) return;
        g.__reads = { count: 0, bytes: 0 };
        const proto = g.FileReaderSync.prototype;
        const read = proto.readAsArrayBuffer;
        proto.readAsArrayBuffer = function (blob: Blob) {
          g.__reads!.count++;
          g.__reads!.bytes += blob.size;
          return read.call(this, blob);
        };
      })
      .catch(() => {}); // a worker that ended meanwhile
  page.on('worker', patch);
  await expect.poll(() => page.workers().length).toBeGreaterThan(0);
  await Promise.all(page.workers().map(patch));
  // Reads since the last call, summed over the workers.
  return async () => {
    const all = await Promise.all(
      page.workers().map((w) =>
        w
          .evaluate(() => {
            const g = self as unknown as { __reads?: { count: number; bytes: number } };
            const r = g.__reads ?? { count: 0, bytes: 0 };
            g.__reads = { count: 0, bytes: 0 };
            return r;
          })
          .catch(() => ({ count: 0, bytes: 0 })),
      ),
    );
    return all.reduce((a, b) => ({ count: a.count + b.count, bytes: a.bytes + b.bytes }), { count: 0, bytes: 0 });
  };
}

function cliCsv(rule: string): string[] {
  return asysOut(['stats', '-r', rule, report]).trimEnd().split('\n');
}

test('a dropped report is read in a few large reads, answers as the CLI does, and a later summary reads it again about once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The rule is chosen on the demo first, so it runs as soon as the report opens.
  await page.goto('./?demo=base');
  await expect(page.getByTestId('summary-file')).toHaveText('demo-base.asysrep');
  await waitIdle(page);
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  const readsSince = await countReads(page);

  await dropDiskFile(page, report);
  await expect(page.getByTestId('summary-file')).toHaveText('reads.asysrep');
  // A 90 MB scan: allow for a machine busy with other work (this test counts reads, not time).
  expect(await waitResult(page, 'hggc_ppu_kern_sum', 90_000)).toBe('ready');
  // served with COOP/COEP (scripts/serve.mjs): a reader worker reads the file ahead
  // (created at the open; it may start only once the engine's worker is free)
  await expect.poll(() => page.workers().some((w) => w.url().includes('prefetch_worker'))).toBe(true);
  const first = await readsSince();
  const size = statSync(report).size;
  // Page by page this would be ~7,000 reads of the kernel table alone.
  expect(first.count).toBeGreaterThan(0);
  expect(first.count).toBeLessThan(100); // opening (a few small reads) and the scan
  expect(first.bytes).toBeLessThanOrEqual(size * 1.1);
  expect((await exportedCsv(page)).lines).toEqual(cliCsv('hggc_ppu_kern_sum'));

  // The grid summary reads the kernel columns the first rule did not load.
  expect(await selectRule(page, 'hggc_ppu_kern_gb_sum')).toBe('ready');
  expect((await readsSince()).count).toBeGreaterThan(0);
  expect((await exportedCsv(page)).lines).toEqual(cliCsv('hggc_ppu_kern_gb_sum'));
  await readsSince();

  // The summaries keep no kernel column (before 2026-12-05 the grid summary
  // held them all, 0.6x the report, and these read nothing): each reads the
  // table again, in a few large reads, about once.
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  await page.getByTestId('setting-name-mode').locator('select').selectOption({ label: 'Base' });
  await expect(page.locator('.cli-spec')).toContainText('hggc_ppu_kern_sum:base');
  expect(await waitResult(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect((await exportedCsv(page)).lines).toEqual(cliCsv('hggc_ppu_kern_sum:base'));
  const again = await readsSince();
  expect(again.count).toBeLessThan(100);
  expect(again.bytes).toBeLessThanOrEqual(size * 2.2); // the two summaries above
});

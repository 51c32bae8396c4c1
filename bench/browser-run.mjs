// Drops one report on the built viewer (build/web) in headless Debian
// Chromium and times it with the app's performance marks (web/src/App.tsx):
//   asys:open    the drop reached the app
//   asys:summary the report's summary is shown
//   asys:table   a rule's table is shown
// The rule is chosen first on the small demo report, so it is the selected
// rule when the big report arrives and runs as soon as the report is open,
// as it does for someone who drops report after report on one rule.
// The file reaches the page as a disk-backed File (an <input type=file>
// filled by Playwright, then dropped), exactly what a desktop drop gives.
//
// Prints one JSON line: drop -> summary and drop -> table in seconds, the
// table's rows, the tab's peak memory (the high-water mark of resident
// memory of the renderer process that runs the page and its engine worker,
// from /proc; the dropped file is not in it: Chromium reads it from disk),
// and the FileReaderSync calls of its workers: how many, the MiB they read,
// whether a reader worker read ahead (cross-origin isolated page), and the
// seconds the engine's own worker spent in them.
// With SORT_COLUMN=NAME, then a click on that column's header until the
// sorted rows are in (sortSeconds); with SCROLL_ROW=N, the table scrolled to
// row N until it is drawn (scrollMs).
// Usage: node bench/browser-run.mjs REPORT [RULE]   (after npm run build)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { dropDiskFile, launchChromium, serveBuiltApp } from './browser.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [reportArg, rule = 'hggc_ppu_kern_sum'] = process.argv.slice(2);
if (!reportArg) {
  console.error('usage: node bench/browser-run.mjs REPORT [RULE]');
  process.exit(2);
}
const report = path.resolve(reportArg);

const { baseUrl, server } = await serveBuiltApp(root);

// This script's own processes: the descendants of this Node process (other
// Chromiums may run on the machine: their renderers are not this page's).
function ownPids() {
  const parent = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      parent.set(pid, readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[1]);
    } catch {
      /* gone */
    }
  }
  const mine = (pid) => {
    for (let p = parent.get(pid), i = 0; p && p !== '0' && i < 20; p = parent.get(p), i++) if (p === String(process.pid)) return true;
    return false;
  };
  return [...parent.keys()].filter(mine);
}

// Peak resident memory (VmHWM) of each of this script's Chromium renderer processes, in KiB.
function rendererPeaks() {
  const peaks = [];
  for (const pid of ownPids()) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const hwm = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
      if (hwm) peaks.push(Number(hwm[1]));
    } catch {
      /* gone */
    }
  }
  return peaks;
}

// CPU seconds of this script's Chromium (its processes: descendants of this
// Node process) by process type and thread name, from /proc: what each part
// cost whatever the machine's load (SPLIT=1 reports drop -> table).
function chromiumCpu() {
  const cpu = {};
  for (const pid of ownPids()) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chrom')) continue;
      const type = (cmd.match(/--type=([a-z-]+)/) ?? [null, 'browser'])[1];
      const utility = (cmd.match(/--utility-sub-type=([\w.]+)/) ?? [null, ''])[1];
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
          const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
          const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          // Both workers' threads are "DedicatedWorker": by thread id (the
          // engine's is the older, made when the page loaded; the reader's
          // is made when a large report opens).
          const key = `${type}${utility ? '/' + utility.split('.').pop() : ''}:${comm}${comm.startsWith('DedicatedWorker') ? '#' + tid : ''}`;
          cpu[key] = (cpu[key] ?? 0) + (Number(f[11]) + Number(f[12])) / 100; // utime + stime, ticks of 10 ms
        } catch {
          /* gone */
        }
      }
    } catch {
      /* gone */
    }
  }
  return cpu;
}
const cpuSince = (before) => {
  const now = chromiumCpu();
  const out = {};
  for (const [k, v] of Object.entries(now)) {
    const d = +(v - (before[k] ?? 0)).toFixed(2);
    if (d >= 0.05) out[k] = d;
  }
  return out;
};

const browser = await launchChromium();
try {
  // The service worker would precache the app (6.5 MB) during the measurement.
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${baseUrl}?demo=base`);
  await page.locator('body[data-state=idle]').waitFor();
  await page.getByTestId(`rule-${rule}`).click();
  const result = page.locator(`[data-testid=result][data-rule="${rule}"][data-status=ready]`);
  await result.waitFor();
  await page.locator('body[data-state=idle]').waitFor();

  // FileReaderSync calls of every worker (the engine's, and the reader
  // worker that reads ahead of it, created when the report is opened): how
  // many, their bytes, and the time each worker spent in them.
  // Besides (where the time goes, issue 24 target 3): each worker's
  // Atomics.wait (the engine waiting for the reader's ring) and
  // Atomics.waitAsync (the reader waiting for a free slot), its large copies
  // (Uint8Array.set of 1 MiB or more: ring -> engine heap, read -> ring),
  // and the engine worker's requests and answers (epoch ms, to line up
  // with the page's marks).
  const patch = (worker) =>
    worker
      .evaluate((split) => {
        if (self.__reads) return;
        const now = () => performance.timeOrigin + performance.now();
        self.__reads = { count: 0, bytes: 0, ms: 0, waits: 0, waitMs: 0, asyncWaits: 0, asyncWaitMs: 0, copies: 0, copyMiB: 0, copyMs: 0, log: [] };
        const r = self.__reads;
        const proto = FileReaderSync.prototype;
        const read = proto.readAsArrayBuffer;
        proto.readAsArrayBuffer = function (blob) {
          const t = performance.now();
          const buffer = read.call(this, blob);
          r.ms += performance.now() - t;
          r.count++;
          r.bytes += blob.size;
          return buffer;
        };
        if (!split) return;
        const wait = Atomics.wait;
        Atomics.wait = function (...args) {
          const t = performance.now();
          const out = wait.apply(Atomics, args);
          r.waitMs += performance.now() - t;
          r.waits++;
          return out;
        };
        const waitAsync = Atomics.waitAsync;
        if (waitAsync) {
          Atomics.waitAsync = function (...args) {
            const t = performance.now();
            const out = waitAsync.apply(Atomics, args);
            r.asyncWaits++;
            if (out.async) out.value.then(() => { r.asyncWaitMs += performance.now() - t; });
            return out;
          };
        }
        const set = Uint8Array.prototype.set;
        Uint8Array.prototype.set = function (source, offset) {
          if (!source || source.length < 1 << 20) return set.call(this, source, offset);
          const t = performance.now();
          set.call(this, source, offset);
          r.copyMs += performance.now() - t;
          r.copies++;
          r.copyMiB += source.length / 2 ** 20;
        };
        // Before the worker's own handler (which may run the request at once).
        const own = self.onmessage;
        if (own) {
          self.onmessage = function (e) {
            if (e.data && e.data.type) r.log.push(['in', e.data.type, now()]);
            return own.call(this, e);
          };
        }
        const post = self.postMessage.bind(self);
        self.postMessage = (msg, ...rest) => {
          if (msg && msg.kind && msg.kind !== 'progress') r.log.push(['out', msg.kind, now()]);
          return post(msg, ...rest);
        };
      }, Boolean(process.env.SPLIT))
      .catch(() => {});
  page.on('worker', patch);
  await Promise.all(page.workers().map(patch));
  const engineWorker = page.workers()[0];

  // The file, disk-backed, then dropped.
  await page.evaluate(() => performance.clearMarks());
  const cpuBefore = process.env.SPLIT ? chromiumCpu() : null;
  await dropDiskFile(page, report);
  const name = path.basename(report);
  await page.getByTestId('summary-file').filter({ hasText: name }).waitFor({ timeout: 3_600_000 });
  // The table of this report: a mark after the summary's.
  const marks = await page.waitForFunction(
    (wanted) => {
      const all = performance.getEntriesByType('mark');
      const open = all.find((m) => m.name === 'asys:open');
      const summary = all.find((m) => m.name === 'asys:summary' && m.startTime >= (open?.startTime ?? Infinity));
      const table = all.find((m) => m.name === 'asys:table' && m.detail?.rule === wanted && summary && m.startTime >= summary.startTime);
      const error = document.querySelector(`[data-testid=result][data-rule="${wanted}"][data-status=error]`);
      if (error) return { error: error.textContent };
      return open && summary && table
        ? {
            open: open.startTime,
            summary: summary.startTime,
            table: table.startTime,
            rows: table.detail.rows,
            openEpoch: performance.timeOrigin + open.startTime,
            tableEpoch: performance.timeOrigin + table.startTime,
          }
        : null;
    },
    rule,
    { timeout: 3_600_000, polling: 100 },
  ).then((h) => h.jsonValue());
  if (marks.error) throw new Error(`${rule}: ${marks.error}`);
  const cpuToTable = cpuBefore ? cpuSince(cpuBefore) : null;
  // A paged result's pie is summed by the engine part by part after its
  // table is shown: the page is busy until then (idleSeconds, from the drop).
  await page.locator('body[data-state=idle]').waitFor({ timeout: 3_600_000 });
  const idle = await page.evaluate(() => performance.now());

  // SORT_COLUMN=NAME: a click on that header until the sorted rows are in
  // (the page is busy while the engine sorts, idle once the order is applied).
  let sortSeconds = null;
  if (process.env.SORT_COLUMN) {
    await page.evaluate(() => {
      self.__states = [];
      new MutationObserver(() => self.__states.push([document.body.dataset.state, performance.now()])).observe(
        document.body,
        { attributes: true, attributeFilter: ['data-state'] },
      );
    });
    const header = page.locator('[data-testid=result-table] [role=columnheader]', { hasText: process.env.SORT_COLUMN }).first();
    const clicked = await page.evaluate(() => performance.now());
    await header.click();
    const done = await page
      .waitForFunction(
        () => {
          const busy = self.__states.findIndex(([s]) => s === 'busy');
          const idle = busy >= 0 ? self.__states.slice(busy).find(([s]) => s === 'idle') : null;
          return idle ? idle[1] : null;
        },
        null,
        { timeout: 600_000, polling: 20 },
      )
      .then((h) => h.jsonValue());
    sortSeconds = +((done - clicked) / 1000).toFixed(3);
  }

  // SCROLL_ROW=N: the table scrolled to position N until that row is drawn.
  let scrollMs = null;
  if (process.env.SCROLL_ROW) {
    const at = Number(process.env.SCROLL_ROW);
    scrollMs = await page.evaluate(async (at) => {
      const scroller = document.querySelector('[data-testid=result-table]');
      const n = Number(scroller.dataset.rows);
      // ResultTable's scrollTopFor (scaled when the rows are taller than the browser allows).
      const ROW = 26, MAX = 15_000_000, viewport = scroller.clientHeight;
      const visible = Math.ceil(viewport / ROW) + 1;
      const firstRows = Math.max(1, n - visible + 1);
      const first = Math.min(firstRows - 1, Math.max(0, at - Math.floor(visible / 2)));
      const top = n * ROW <= MAX ? Math.max(0, at * ROW - Math.floor(viewport / 2)) : Math.ceil((first / firstRows) * Math.max(1, MAX - viewport));
      const t = performance.now();
      scroller.scrollTop = top;
      // Drawn: the row is there with its cells (a paged result's row waits for its page: data-loading).
      while (!scroller.querySelector(`[aria-rowindex="${at + 2}"]:not([data-loading])`)) {
        if (performance.now() - t > 10_000) return null;
        await new Promise((r) => requestAnimationFrame(r));
      }
      return performance.now() - t;
    }, at);
    if (scrollMs === null) throw new Error(`row ${at} was not drawn within 10 s of the scroll`);
    scrollMs = +scrollMs.toFixed(1);
  }
  const peaks = rendererPeaks();
  const reads = await Promise.all(page.workers().map((w) => w.evaluate(() => ({ url: location.href, ...self.__reads })).catch(() => null)));
  const engineReads = reads.find((r) => r && r.url === engineWorker.url()) ?? { count: 0, bytes: 0, ms: 0 };
  const total = reads.filter(Boolean).reduce((a, r) => ({ count: a.count + r.count, bytes: a.bytes + r.bytes }), { count: 0, bytes: 0 });
  console.log(JSON.stringify({
    report: name,
    bytes: statSync(report).size,
    rule,
    rows: marks.rows,
    dropToSummary: +((marks.summary - marks.open) / 1000).toFixed(3),
    dropToTable: +((marks.table - marks.open) / 1000).toFixed(3),
    dropToIdle: +((idle - marks.open) / 1000).toFixed(3),
    peakMiB: Math.round(Math.max(...peaks) / 1024),
    readAhead: reads.length > 1,
    fileReads: total.count,
    fileReadMiB: Math.round(total.bytes / 2 ** 20),
    engineReadSeconds: +(engineReads.ms / 1000).toFixed(3),
    // With SPLIT=1: each worker's reads, waits, copies and (the engine's)
    // requests, for where the time from drop to table goes.
    split: process.env.SPLIT ? { openEpoch: marks.openEpoch, tableEpoch: marks.tableEpoch, cpuToTable, workers: reads.filter(Boolean) } : undefined,
    sortSeconds,
    scrollMs,
    errors,
  }));
} finally {
  await browser.close();
  server.kill();
}

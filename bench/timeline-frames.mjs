// Frame times of the timeline in the built viewer (build/web), in headless
// Debian Chromium: drops REPORT on the page, opens the timeline, then zooms
// in and out with the wheel and pans with the keys over STEPS steps, one
// input at a time, each waited for until its window's slices are painted.
// It reads the viewer's frame marks (web/src/lib/frame_marks.ts, switched on
// by the init script below):
//   query           asys:tl-query: the window request posted -> its slices back
//   worker          asys:tl-worker: of that, the worker's answering (the
//                   engine's query and decoding; the rest is the messages
//                   and waiting for the page's thread)
//   paint           asys:tl-paint: one canvas paint (every paint, also the
//                   one right after an input that redraws the old slices at
//                   the new scale)
//   frame           query + the paint of its slices: what one new window costs
//   input -> frame  asys:tl-input -> asys:tl-frame of the window it asked for
//                   (includes the view's 16 ms wait before it asks, which
//                   lets a burst of wheel events ask once)
// and, during a burst of 60 wheel events 16 ms apart, the intervals between
// the page's animation frames (what the eye sees while zooming fast).
// Prints one JSON line (median, p95, max of each) and a Markdown table row.
// Usage: node bench/timeline-frames.mjs REPORT [STEPS]   (after the build)
// Not part of npm test: a 10 M-event report takes minutes to open.
import { statSync } from 'node:fs';
import path from 'node:path';
import { dropDiskFile, launchChromium, serveBuiltApp } from './browser.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [reportArg, stepsArg = '120'] = process.argv.slice(2);
if (!reportArg) {
  console.error('usage: node bench/timeline-frames.mjs REPORT [STEPS]');
  process.exit(2);
}
const report = path.resolve(reportArg);
const steps = Number(stepsArg);
const LABELS = 230; // TimelineCanvas LABEL_WIDTH
const HOUR = 3_600_000;

const { baseUrl, server } = await serveBuiltApp(root);

const stats = (values) => {
  const v = [...values].sort((a, b) => a - b);
  const at = (q) => v[Math.min(v.length - 1, Math.floor(q * v.length))];
  const r = (x) => (x === undefined ? null : +x.toFixed(1));
  return { n: v.length, median: r(at(0.5)), p95: r(at(0.95)), max: r(v[v.length - 1]) };
};

const browser = await launchChromium();
try {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 860 } });
  await context.addInitScript(() => {
    globalThis.__ASYS_FRAME_MARKS__ = true;
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const idle = () => page.locator('body[data-state=idle]').waitFor({ timeout: HOUR });
  await page.goto(baseUrl);
  await idle();

  // The file, disk-backed (as a desktop drop gives it), then dropped.
  const t0 = Date.now();
  await dropDiskFile(page, report);
  await page.getByTestId('summary-file').filter({ hasText: path.basename(report) }).waitFor({ timeout: HOUR });
  await idle();
  const opened = Date.now();
  await page.getByTestId('view-timeline').click();
  const firstFrame = page.waitForFunction(() => performance.getEntriesByName('asys:tl-frame').length > 0, null, { timeout: HOUR, polling: 100 });
  await Promise.race([
    firstFrame,
    page.locator('.placeholder').filter({ hasNotText: 'Building' }).waitFor({ timeout: HOUR }).then(async () => {
      const why = await page.getByTestId('error-text').allInnerTexts();
      throw new Error(`no timeline after ${((Date.now() - opened) / 1000).toFixed(1)} s: ${await page.locator('.placeholder').innerText()} ${why.join(' ')}`);
    }),
  ]);
  await idle();
  const shown = Date.now();
  const info = await page.getByTestId('timeline-window').innerText();

  const canvas = page.getByTestId('timeline-canvas');
  const box = await canvas.boundingBox();
  const x = box.x + LABELS + (box.width - LABELS) * 0.5;
  await page.mouse.move(x, box.y + 60);
  await canvas.focus();
  const frames = () => page.evaluate(() => performance.getEntriesByName('asys:tl-frame').length);

  // One input, then its window's frame (none comes when the window did not move: at a limit).
  const latency = [];
  let noMove = 0;
  async function step(input) {
    const before = await frames();
    const windowBefore = await page.getByTestId('timeline').getAttribute('data-from') + '/' + (await page.getByTestId('timeline').getAttribute('data-to'));
    await input();
    const windowAfter = await page.getByTestId('timeline').getAttribute('data-from') + '/' + (await page.getByTestId('timeline').getAttribute('data-to'));
    if (windowAfter === windowBefore) {
      noMove++;
      return;
    }
    await page.waitForFunction((n) => performance.getEntriesByName('asys:tl-frame').length > n, before, { timeout: HOUR, polling: 'raf' });
    await idle();
    const ms = await page.evaluate(() => {
      const input = performance.getEntriesByName('asys:tl-input').at(-1);
      const frame = performance.getEntriesByName('asys:tl-frame').at(-1);
      return frame.startTime - input.startTime;
    });
    latency.push(ms);
  }
  // Zoom in around the middle (wheel), pan (D, A), zoom out (S), repeated.
  const plan = [];
  while (plan.length < steps) {
    for (let i = 0; i < 10; i++) plan.push(() => page.mouse.wheel(0, -300));
    for (let i = 0; i < 5; i++) plan.push(() => page.keyboard.press('d'));
    for (let i = 0; i < 5; i++) plan.push(() => page.keyboard.press('a'));
    for (let i = 0; i < 10; i++) plan.push(() => page.keyboard.press('s'));
  }
  for (const input of plan.slice(0, steps)) await step(input);

  // A burst: 60 wheel events 16 ms apart (30 in, 30 out), animation frames recorded.
  await page.evaluate(() => {
    window.__rafTimes = [];
    const loop = (t) => {
      window.__rafTimes.push(t);
      if (window.__rafOn) requestAnimationFrame(loop);
    };
    window.__rafOn = true;
    requestAnimationFrame(loop);
  });
  for (let i = 0; i < 60; i++) {
    await page.mouse.wheel(0, i < 30 ? -120 : 120);
    await page.waitForTimeout(16);
  }
  await idle();
  const raf = await page.evaluate(() => {
    window.__rafOn = false;
    const t = window.__rafTimes;
    return t.slice(1).map((v, i) => v - t[i]);
  });

  const marks = await page.evaluate(() => ({
    query: performance.getEntriesByName('asys:tl-query').map((m) => ({ seq: m.detail.seq, ms: m.duration })),
    worker: performance.getEntriesByName('asys:tl-worker').map((m) => m.duration),
    paint: performance.getEntriesByName('asys:tl-paint').map((m) => ({ end: m.startTime + m.duration, ms: m.duration })),
    frame: performance.getEntriesByName('asys:tl-frame').map((m) => ({ seq: m.detail.seq, at: m.startTime })),
  }));
  // A frame: its window's query, plus the last paint that ended before its mark.
  const querySeq = new Map(marks.query.map((q) => [q.seq, q.ms]));
  const frameMs = [];
  for (const f of marks.frame) {
    const paint = marks.paint.filter((p) => p.end <= f.at + 0.01).at(-1);
    if (querySeq.has(f.seq) && paint) frameMs.push(querySeq.get(f.seq) + paint.ms);
  }
  const result = {
    report: path.basename(report),
    bytes: statSync(report).size,
    timeline: info,
    openSeconds: +((opened - t0) / 1000).toFixed(1),
    timelineSeconds: +((shown - opened) / 1000).toFixed(1),
    steps: latency.length,
    stepsAtALimit: noMove,
    queryMs: stats(marks.query.map((q) => q.ms)),
    workerMs: stats(marks.worker),
    paintMs: stats(marks.paint.map((p) => p.ms)),
    frameMs: stats(frameMs),
    inputToFrameMs: stats(latency),
    burstRafIntervalMs: stats(raf),
    errors,
  };
  console.log(JSON.stringify(result));
  const s = (o) => `${o.median} / ${o.p95} / ${o.max}`;
  console.log(
    `| ${result.report} | ${info.replace(/^.*?· /, '')} | ${result.steps} | ${s(result.queryMs)} | ${s(result.paintMs)} | ${s(result.frameMs)} | ${s(result.inputToFrameMs)} | ${s(result.burstRafIntervalMs)} |`,
  );
} finally {
  await browser.close();
  server.kill();
}

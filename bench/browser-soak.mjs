// Soak in the browser: the built viewer in headless Chromium opens a report
// (a disk-backed drop), runs five rules through the page (a summary, a trace
// that is a view, a range summary, the metric trace, the desync summary),
// closes it, ROUNDS times, in one engine. The engine's WebAssembly memory
// (it grows and never shrinks) after the last round must be within 5% of its
// size after the first: a leak of a result, a view, a report or its tables
// would grow it round after round (bench/soak.mjs does the same under Node).
// Prints one JSON line; exits 1 when a rule fails or the memory grew more.
// Usage: node bench/browser-soak.mjs REPORT [ROUNDS]   (default 50; after npm run build)
import path from 'node:path';
import { dropDiskFile, launchChromium, serveBuiltApp } from './browser.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [reportArg, roundsArg = '50'] = process.argv.slice(2);
if (!reportArg) {
  console.error('usage: node bench/browser-soak.mjs REPORT [ROUNDS]');
  process.exit(2);
}
const report = path.resolve(reportArg);
const rounds = Number(roundsArg);
const RULES = ['hggc_ppu_kern_sum', 'hggc_ppu_trace', 'hgtx_sum', 'ppu_metric_trace', 'pccl_desync_summary'];
const name = path.basename(report);

const { baseUrl, server } = await serveBuiltApp(root);
const browser = await launchChromium();
let failed = null;
try {
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  page.on('pageerror', (e) => (failed ??= `page error: ${e}`));
  await page.goto(baseUrl);
  await page.locator('body[data-state=idle]').waitFor();
  const heap = () => page.workers()[0].evaluate(() => self.__asysHeapBytes?.() ?? 0);
  const sizes = [];
  const started = Date.now();
  for (let round = 1; round <= rounds && !failed; round++) {
    await dropDiskFile(page, report);
    await page.getByTestId('summary-file').filter({ hasText: name }).waitFor({ timeout: 600_000 });
    await page.locator('body[data-state=idle]').waitFor({ timeout: 600_000 });
    for (const rule of RULES) {
      await page.getByTestId(`rule-${rule}`).click();
      const result = page.locator(`[data-testid=result][data-rule="${rule}"]`);
      await page
        .locator(`[data-testid=result][data-rule="${rule}"]:is([data-status=ready], [data-status=error])`)
        .waitFor({ timeout: 600_000 });
      if ((await result.getAttribute('data-status')) !== 'ready') {
        failed = `${rule}, round ${round}: ${await result.innerText()}`;
        break;
      }
      await page.locator('body[data-state=idle]').waitFor({ timeout: 600_000 });
    }
    await page.getByRole('button', { name: `Close ${name}` }).click();
    await page.getByRole('button', { name: `Close ${name}` }).waitFor({ state: 'detached' });
    await page.locator('body[data-state=idle]').waitFor();
    sizes.push(await heap());
  }
  const first = sizes[0] ?? 0;
  const last = sizes.at(-1) ?? 0;
  const growth = first > 0 ? last / first - 1 : NaN;
  console.log(JSON.stringify({
    report: name,
    rounds: sizes.length,
    rules: RULES,
    firstRoundMiB: +(first / 2 ** 20).toFixed(1),
    lastRoundMiB: +(last / 2 ** 20).toFixed(1),
    growthPercent: +(growth * 100).toFixed(2),
    seconds: Math.round((Date.now() - started) / 1000),
  }));
  if (!failed && !(growth <= 0.05)) failed = `the engine's memory grew ${(growth * 100).toFixed(1)}% from the first round to the last`;
} finally {
  await browser.close();
  server.kill();
}
if (failed) {
  console.error(`browser-soak: ${failed}`);
  process.exit(1);
}

// Drops two reports on the built viewer (build/web) in headless Debian
// Chromium, opens the compare view on them and runs one compare rule: the
// browser half of issue 20's target 2 for the compare rules (browser-run.mjs
// drops one report and cannot run them).
//   1. the base report, then the target, each dropped as a disk-backed File
//      (bench/browser.mjs); the second dropped is active and the compare
//      view compares it with the first, so the script swaps them back;
//   2. the rule clicked in the compare view, timed from the click until its
//      table is ready (data-status=ready) or failed (data-status=error: an
//      error, never a time).
// Prints one JSON line: the rule, its rows (the row count the table shows),
// the seconds from the click to the table, the tab's peak memory (VmHWM of
// the renderer processes, as browser-run.mjs), and the page's errors.
// Usage: node bench/browser-compare.mjs BASE TARGET RULE   (after npm run build)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { dropDiskFile, launchChromium, serveBuiltApp } from './browser.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const [baseArg, targetArg, rule] = process.argv.slice(2);
if (!baseArg || !targetArg || !rule) {
  console.error('usage: node bench/browser-compare.mjs BASE TARGET RULE');
  process.exit(2);
}
const base = path.resolve(baseArg);
const target = path.resolve(targetArg);
const HOUR = 3_600_000;

function rendererPeakKiB() {
  let peak = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const hwm = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
      if (hwm) peak = Math.max(peak, Number(hwm[1]));
    } catch {
      /* gone */
    }
  }
  return peak;
}

const { baseUrl, server } = await serveBuiltApp(root);
const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ serviceWorkers: 'block' })).newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(baseUrl);
  await page.locator('body[data-state=idle]').waitFor();
  const opened = performance.now();
  for (const file of [base, target]) {
    await dropDiskFile(page, file);
    await page.getByTestId('summary-file').filter({ hasText: path.basename(file) }).waitFor({ timeout: HOUR });
    await page.locator('body[data-state=idle]').waitFor({ timeout: HOUR });
  }
  const openSeconds = (performance.now() - opened) / 1000;
  await page.getByTestId('view-compare').click();
  const aliasBase = page.getByTestId('alias-base');
  await aliasBase.waitFor();
  if (!(await aliasBase.textContent()).includes(path.basename(base, '.asysrep'))) {
    await page.getByTestId('swap').click();
  }
  const shown = await aliasBase.textContent();
  if (!shown.includes(path.basename(base, '.asysrep'))) throw new Error(`the compare's base is ${shown}, not ${base}`);

  const clicked = performance.now();
  await page.getByTestId(`rule-${rule}`).click();
  const status = await page
    .waitForFunction(
      (wanted) => {
        const el = document.querySelector(`[data-testid=result][data-rule="${wanted}"]`);
        const s = el?.getAttribute('data-status');
        if (s === 'error') return { error: el.textContent };
        if (s !== 'ready') return null;
        const count = document.querySelector('[data-testid=row-count]')?.textContent ?? '';
        return { rows: Number(count.replace(/[^\d]/g, '')) };
      },
      rule,
      { timeout: HOUR, polling: 100 },
    )
    .then((h) => h.jsonValue());
  const seconds = (performance.now() - clicked) / 1000;
  if (status.error) throw new Error(`${rule}: ${status.error}`);
  console.log(
    JSON.stringify({
      base: path.basename(base),
      target: path.basename(target),
      bytes: [statSync(base).size, statSync(target).size],
      rule,
      rows: status.rows,
      openSeconds: +openSeconds.toFixed(3),
      clickToTable: +seconds.toFixed(3),
      peakMiB: Math.round(rendererPeakKiB() / 1024),
      errors,
    }),
  );
  if (errors.length) process.exitCode = 1;
} finally {
  await browser.close();
  server.kill();
}

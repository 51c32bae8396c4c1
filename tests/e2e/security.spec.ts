// The Content-Security-Policy (scripts/csp.mjs, docs/security.md): the page
// and its workers load nothing from outside the app's origin and break no
// rule of the policy while a report is opened, rules run (stats, analyze,
// operators, timeline), the demo pair compared and results exported.
import { expect, test, type Page } from '@playwright/test';
import { CONTENT_SECURITY_POLICY } from '../../scripts/csp.mjs';
import { exportedCsv, openDemo, selectRule, waitIdle, waitResult } from './helpers';

interface Recorder {
  requests: string[];
  violations: () => Promise<string[]>;
}

// Every request of the page and its workers, and every CSP violation: the
// document's `securitypolicyviolation` events and the console's reports
// (a worker's violations reach the console, not the document).
async function record(page: Page): Promise<Recorder> {
  const requests: string[] = [];
  const consoleReports: string[] = [];
  page.context().on('request', (req) => requests.push(req.url()));
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) consoleReports.push(m.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return {
    requests,
    violations: async () => [
      ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
      ...consoleReports,
    ],
  };
}

function outsideOrigin(requests: string[], origin: string): string[] {
  return requests.filter((u) => {
    const url = new URL(u);
    // a download's blob: URL carries the origin that made it
    if (url.protocol === 'blob:') return new URL(url.pathname).origin !== origin;
    return url.origin !== origin;
  });
}

test('the policy is the meta tag of the page and the header of every file', async ({ page, request }) => {
  const response = await page.goto('./');
  expect(response!.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
    'content',
    CONTENT_SECURITY_POLICY,
  );
  const engine = await request.get('./engine/asys_engine.mjs');
  expect(engine.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
});

test('the policy is in force: a remote fetch and an inline script are refused and reported', async ({ page }) => {
  const rec = await record(page);
  await page.goto('./');
  await waitIdle(page);
  const outcome = await page.evaluate(async () => {
    const results: string[] = [];
    try {
      await fetch('https://example.com/x');
      results.push('fetch went out');
    } catch {
      results.push('fetch refused');
    }
    // An inline script, as markup smuggled into the page would add one.
    const script = document.createElement('script');
    script.textContent = 'window.inlineRan = 1';
    document.head.append(script);
    results.push((window as unknown as { inlineRan?: number }).inlineRan ? 'inline script ran' : 'inline script refused');
    return results;
  });
  expect(outcome).toEqual(['fetch refused', 'inline script refused']);
  await expect.poll(async () => (await rec.violations()).join('\n')).toMatch(/connect-src blocked https:\/\/example\.com/);
  expect((await rec.violations()).join('\n')).toMatch(/script-src-elem blocked inline/);
  expect(outsideOrigin(rec.requests, new URL(page.url()).origin)).toEqual([]);
});

test('opening, analysing, comparing and exporting: no request leaves the origin, no violation', async ({ page }) => {
  const rec = await record(page);
  await page.goto('./');
  await waitIdle(page);
  const origin = new URL(page.url()).origin;

  await openDemo(page);
  for (const rule of ['hggc_ppu_kern_sum', 'hgtx_sum', 'ppu_op_sum', 'device_memory_usage_summary', 'ppu_gaps']) {
    expect(await selectRule(page, rule)).toMatch(/^(ready|error)$/);
  }
  await selectRule(page, 'hggc_ppu_kern_sum');
  expect((await exportedCsv(page)).lines.length).toBeGreaterThan(1);
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(xlsx.suggestedFilename()).toBe('demo-base_hggc_ppu_kern_sum.xlsx');
  await waitIdle(page);

  await page.getByTestId('view-timeline').click();
  await expect(page.getByTestId('timeline-canvas')).toBeVisible();
  await waitIdle(page);

  await page.getByTestId('demo-pair').click();
  await waitIdle(page);
  await page.getByTestId('view-compare').click();
  await page.getByTestId('rule-ppu_kernel_summary_compare').click();
  expect(await waitResult(page, 'ppu_kernel_summary_compare')).toBe('ready');
  await expect(page.getByTestId('hotspot-chart')).toHaveAttribute('data-rendered', 'true');
  expect((await exportedCsv(page)).name).toBe('demo-base_vs_demo-slow_ppu_kernel_summary_compare.csv');

  expect(rec.requests.length).toBeGreaterThan(3); // the recorder saw the app's own loads
  expect(outsideOrigin(rec.requests, origin), 'requests outside the app origin').toEqual([]);
  expect(await rec.violations(), 'Content-Security-Policy violations').toEqual([]);
});

// Offline: after the first visit the service worker (vite-plugin-pwa's
// Workbox precache) serves the whole app, engine and demo reports with the
// network cut, here from a sub-path of a second static server. The other
// tests block service workers (playwright.config.ts); this file allows them.
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_SLOW, ROOT, dropFile, openDemo, selectRule, tableRows, waitIdle } from './helpers';

test.use({ serviceWorkers: 'allow' });

let server: ChildProcess;
let root: string;
let appUrl: string;

// build/web under /nested/app/ of its own server: the app must not assume it is at the root.
test.beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'asys-offline-'));
  mkdirSync(path.join(root, 'nested'));
  symlinkSync(path.join(ROOT, 'build/web'), path.join(root, 'nested/app'));
  server = spawn(process.execPath, [path.join(ROOT, 'scripts/serve.mjs'), root, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      const m = /at (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  appUrl = `${base}nested/app/`;
});

test.afterAll(() => {
  server?.kill();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('after the first visit the app opens the demo and runs a rule with the network cut', async ({ page, context }) => {
  await page.goto(appUrl);
  await expect(page.getByTestId('landing')).toBeVisible();
  // Installed (the precache filled) and in control of the page.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('landing')).toBeVisible();
  await openDemo(page, 'base');
  expect(await selectRule(page, 'hggc_ppu_kern_sum')).toBe('ready');
  expect(await tableRows(page).count()).toBeGreaterThan(0);

  // A link (a fragment and a query) opens offline too: navigations get index.html.
  await page.goto(`${appUrl}?demo=slow#v=1&view=stats&rule=hgtx_sum`);
  await expect(page.getByTestId('summary-file')).toHaveText('demo-slow.asysrep');
  await waitIdle(page);

  // A dropped file is read where it is, offline as online, and never cached.
  await dropFile(page, 'dropped.asysrep', readFileSync(DEMO_SLOW));
  await expect(page.getByTestId('summary-file')).toHaveText('dropped.asysrep');
  await waitIdle(page);
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) {
      for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
    }
    return urls;
  });
  expect(cached.length).toBeGreaterThan(0);
  expect(cached.filter((u) => u.includes('dropped'))).toEqual([]);
  expect(cached.every((u) => u.startsWith('/nested/app/'))).toBe(true);
  expect(cached).toEqual(
    expect.arrayContaining(['/nested/app/index.html', '/nested/app/engine/asys_engine.wasm', '/nested/app/demo/demo-base.asysrep']),
  );
});

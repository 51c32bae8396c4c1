// End-to-end tests of the built viewer (build/web) in Debian's Chromium.
// Build first: `npx vite build` (scripts/build.sh does it).
import { defineConfig } from '@playwright/test';
import { execFileSync } from 'node:child_process';

// One free localhost port, chosen once: workers inherit it through the environment.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}/`;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  // Under CI one retry: a test that fails and then passes is listed as
  // "flaky" in the log, to be fixed, but does not stop a landing; one that
  // fails twice fails the run. Two fresh-clone runs on 2026-12-05 each
  // found one race under load (a right-click before the scroll was handled,
  // a wheel read before it was handled), both fixed; docs/testing.md.
  retries: process.env.CI ? 1 : 0,
  // A test.only / describe.only left in a spec would run that test alone and
  // pass: under CI (CI=true, as .ci/run is run) the run fails instead.
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1400, height: 860 },
    acceptDownloads: true,
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `node scripts/serve.mjs build/web --port ${port}`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});

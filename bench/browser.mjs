// What the browser benches share: the built viewer (build/web) on a local
// static server, Debian's Chromium, and a report dropped on the page as a
// disk-backed file (as a desktop drop gives it, so the reader worker reads
// it in blocks instead of the page holding it in memory).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';

/**
 * Serves build/web (or ASYS_WEB_DIR: another build, to measure two side by
 * side) on a free port: { baseUrl, server } (kill the server when done).
 */
export async function serveBuiltApp(root) {
  const dir = process.env.ASYS_WEB_DIR ?? path.join(root, 'build/web');
  const server = spawn(process.execPath, [path.join(root, 'scripts/serve.mjs'), dir, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[^\s]+\//);
      if (m) resolve(m[0]);
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited (${code})`)));
  });
  return { baseUrl, server };
}

/** Headless Debian Chromium with nothing of its own running in the background. */
export function launchChromium() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** Drops the file at `report` on the page, as a disk-backed File. */
export async function dropDiskFile(page, report) {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-file';
    input.style.display = 'none';
    document.body.append(input);
  });
  await page.setInputFiles('#bench-file', report);
  await page.evaluate(() => {
    const file = document.getElementById('bench-file').files[0];
    const dt = new DataTransfer();
    dt.items.add(file);
    for (const type of ['dragenter', 'dragover', 'drop']) {
      window.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  });
}

#!/usr/bin/env node
// Serves a directory (the built viewer, build/web by default) on localhost
// with the right MIME types, application/wasm included, and the app's
// Content-Security-Policy (scripts/csp.mjs). No dependencies.
//   node scripts/serve.mjs [DIR] [--port N]     (or PORT=N; 0 = any free port)
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY } from './csp.mjs';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.asysrep': 'application/octet-stream',
};

const args = process.argv.slice(2);
let dir = 'build/web';
let port = Number(process.env.PORT ?? 8080);
let host = process.env.HOST ?? '127.0.0.1';
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--port') port = Number(args[++i]);
  else if (args[i] === '--host') host = args[++i];
  else dir = args[i];
}
const root = path.resolve(dir);

async function resolveFile(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const file = path.resolve(root, '.' + path.posix.normalize('/' + rel));
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const st = await stat(file);
    if (st.isDirectory()) {
      const index = path.join(file, 'index.html');
      const ist = await stat(index);
      return { file: index, size: ist.size };
    }
    return { file, size: st.size };
  } catch {
    return null;
  }
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const found = await resolveFile(req.url ?? '/');
  if (!found) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'Content-Type': MIME[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': found.size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    // Cross-origin isolation: the engine's worker may then share memory with
    // a worker that reads dropped files ahead (web/src/engine/prefetch.ts).
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(found.file)
    .on('error', () => res.destroy())
    .pipe(res);
});

server.on('error', (e) => {
  console.error(`serve: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const { port: actual } = server.address();
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'} at http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}/`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));

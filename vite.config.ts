// The viewer's build: sources in web/, static files (engine, demo reports,
// favicon) from public/, output in build/web. A relative base lets the built
// app run as plain static files from any path.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from './scripts/csp.mjs';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The Content-Security-Policy as a <meta> tag of the built index.html, so the
// app keeps it however it is hosted. Not in the dev server, whose React
// refresh preamble is an inline script.
const contentSecurityPolicy: Plugin = {
  name: 'asys-content-security-policy',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY },
      injectTo: 'head-prepend',
    },
  ],
};

export default defineConfig({
  root: here('./web'),
  publicDir: here('./public'),
  base: './',
  plugins: [react(), contentSecurityPolicy],
  build: {
    outDir: here('./build/web'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
  worker: {
    format: 'es',
  },
  server: {
    host: '127.0.0.1',
  },
});

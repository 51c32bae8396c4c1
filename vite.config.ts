// The viewer's build: sources in web/, static files (engine, demo reports,
// favicon) from public/, output in build/web. A relative base lets the built
// app run as plain static files from any path.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
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
  plugins: [
    react(),
    contentSecurityPolicy,
    // Offline: a Workbox service worker (sw.js, generated) precaches the
    // whole build: index.html, the bundles, the engine's .mjs/.wasm and the
    // demo reports, each entry with its content hash, so a new build replaces
    // exactly what changed and drops the rest. It answers only precached URLs
    // (and navigations, with index.html); dropped files never reach it: they
    // are File objects read in the worker, never fetched.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      manifest: false,
      workbox: {
        cacheId: 'asys-viewer',
        globPatterns: ['**/*.{html,js,mjs,css,wasm,svg,asysrep}'],
        // The engine (~3 MB) and the demo reports (~1.3 MB each) are precached too.
        maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
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

// The viewer's build: sources in web/, static files (engine, demo reports,
// favicon) from public/, output in build/web. A relative base lets the built
// app run as plain static files from any path.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('./web'),
  publicDir: here('./public'),
  base: './',
  plugins: [react()],
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

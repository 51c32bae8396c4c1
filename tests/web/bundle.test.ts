// The built app (build/web, made by scripts/build.sh before the tests) holds
// every chunk its scripts load: a worker started from another worker (the
// file reader, web/src/engine/prefetch.ts) is emitted by the bundler only
// when the page's own bundle does not reach the same module, and a missing
// chunk fails silently in the browser (the reader never starts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const assets = path.resolve(__dirname, '../../build/web/assets');

describe.skipIf(!existsSync(assets))('the built app', () => {
  it('has every chunk its scripts name', () => {
    const files = readdirSync(assets);
    const named = new Set<string>();
    for (const f of files.filter((x) => x.endsWith('.js'))) {
      for (const m of readFileSync(path.join(assets, f), 'utf8').matchAll(/[\w-]+-[\w-]{8}\.js/g)) named.add(m[0]);
    }
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((n) => !files.includes(n))).toEqual([]);
    expect(files.some((f) => f.startsWith('prefetch_worker-'))).toBe(true);
  });
});

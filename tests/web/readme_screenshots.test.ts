// The README shows the viewer as issue 23 asks: the selection statistics,
// the Events view and the advice tab among its screenshots, and every image
// it names is in docs/screenshots (tests/e2e/screenshots.spec.ts takes them).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const images = [...readme.matchAll(/!\[[^\]]*\]\((docs\/screenshots\/[^)]+)\)/g)].map((m) => m[1]);

describe('the README screenshots', () => {
  it('show the selection statistics, the Events view and the advice tab', () => {
    for (const name of ['selection.png', 'events.png', 'advice.png']) expect(images).toContain(`docs/screenshots/${name}`);
  });
  it('are committed PNG files', () => {
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const file = path.join(root, image);
      expect(existsSync(file), image).toBe(true);
      expect(statSync(file).size, image).toBeGreaterThan(10_000);
      expect(readFileSync(file).subarray(1, 4).toString('latin1'), image).toBe('PNG');
    }
  });
});

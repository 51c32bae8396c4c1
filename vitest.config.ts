// Unit tests of the viewer's pure logic (no browser): tests/web and web/src.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/web/**/*.test.ts', 'web/src/**/*.test.ts'],
    environment: 'node',
  },
});

// The soak of bench/soak.mjs on a small generated report: 50 rounds of open,
// five rules (each paged, sorted, exported in parts and released), close, in
// one engine; its memory after the last round within 5% of the first's.
// (bench/README.md has the same on the scale-250 report.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

test('50 rounds of open, five rules, close: the engine ends within 5% of its first round', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'asys-soak-'));
  try {
    const report = path.join(dir, 'soak.asysrep');
    const gen = spawnSync(path.join(root, 'build/native/asys'), ['gen', '--seed', '3', '--scale', '5', '-o', report], {
      encoding: 'utf8',
    });
    assert.equal(gen.status, 0, gen.stderr);
    const soak = spawnSync('node', [path.join(root, 'bench/soak.mjs'), report, '50'], { encoding: 'utf8' });
    assert.equal(soak.status, 0, soak.stderr);
    const result = JSON.parse(soak.stdout);
    assert.equal(result.rounds, 50);
    assert.ok(result.firstRoundMiB > 0);
    assert.ok(result.growth <= 0.05, `grew ${result.growth}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

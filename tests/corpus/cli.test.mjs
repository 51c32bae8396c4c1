// The malformed-input corpus (corpus.mjs) through the native CLI: each input
// answers its exit status and exactly one line on standard error naming the
// problem (or, for a tolerated input, its result and its one warning line),
// within a time limit, never a signal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CORPUS, fileName, ruleOf } from './corpus.mjs';

const ASYS = fileURLToPath(new URL('../../build/native/asys', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-corpus-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('the corpus has at least 30 inputs, each named once', () => {
  assert.ok(CORPUS.length >= 30, `${CORPUS.length} inputs`);
  assert.equal(new Set(CORPUS.map((e) => e.name)).size, CORPUS.length);
});

for (const entry of CORPUS) {
  test(`corpus: ${entry.name}`, () => {
    const file = path.join(dir, fileName(entry));
    entry.make(file);
    const args = ['stats', '-r', ruleOf(entry), ...(entry.config ?? []), file];
    const run = spawnSync(ASYS, args, { encoding: 'utf8', timeout: 20_000 });
    assert.equal(run.signal, null, `killed by ${run.signal} (a crash or a hang): asys ${args.join(' ')}`);
    assert.equal(run.status, entry.exit ?? 1, `exit status; stderr: ${run.stderr}`);
    if (entry.at === 'ok') {
      assert.match(run.stdout, entry.stdout);
      if (!entry.warning) {
        assert.equal(run.stderr, '');
        return;
      }
    } else {
      assert.equal(run.stdout, '');
    }
    const lines = run.stderr.split('\n');
    assert.equal(lines.length, 2, `exactly one stderr line: ${JSON.stringify(run.stderr)}`);
    assert.equal(lines[1], '');
    assert.match(lines[0], entry.at === 'ok' ? entry.warning : entry.error);
  });
}

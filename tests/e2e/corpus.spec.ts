// The malformed-input corpus (tests/corpus/corpus.mjs) dropped on the viewer:
// a refused file gives the error banner with the CLI's line (the file's name
// in place of its path), a report whose rule fails gives the rule's error
// with it, a tolerated one its table and its warning; after each, the demo opens and runs.
// Entries with global rule options (--ppu-op-config, --callstack-group-config)
// are the CLI test's only: the settings editor for those is tested in
// device_memory.spec.ts and operators.spec.ts, and the engine is the same.
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CORPUS, fileName, ruleOf } from '../corpus/corpus.mjs';
import { dropFile, openAppForEachTest, openDemo, selectRule, waitIdle, waitResult } from './helpers';

openAppForEachTest();
const dir = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-corpus-'));

for (const entry of CORPUS.filter((e) => !e.config)) {
  test(`corpus: ${entry.name}`, async ({ page }) => {
    const file = path.join(dir, fileName(entry));
    entry.make(file);
    await dropFile(page, fileName(entry), readFileSync(file));
    if (entry.at === 'open') {
      const error = entry.viewerError ?? entry.error!;
      await expect(page.getByTestId('error-text').last()).toHaveText(new RegExp('^' + error.source.replace(/^\^/, '.*')), {
        timeout: 60_000,
      });
      await waitIdle(page);
    } else {
      await expect(page.getByTestId('summary-file')).toHaveText(fileName(entry));
      await waitIdle(page);
      const [rule, ...options] = ruleOf(entry).split(':');
      const status = await selectRule(page, rule);
      for (const option of options) {
        const eq = option.indexOf('=');
        await page.getByTestId(`setting-${option.slice(0, eq)}`).locator('input').fill(option.slice(eq + 1));
      }
      if (entry.at === 'ok') {
        expect(await waitResult(page, rule)).toBe('ready');
        // A tolerated input says what it tolerated, as the CLI's warning does
        // (the CLI prefixes "RULE: warning: ").
        if (entry.warning) {
          const warning = new RegExp(entry.warning.source.replace(new RegExp(`^${rule}: warning: `), ''));
          await expect(page.getByTestId('result-warnings')).toContainText(warning);
        } else {
          await expect(page.getByTestId('result-warnings')).toHaveCount(0);
        }
      } else {
        if (options.length) expect(await waitResult(page, rule, 30_000)).toBe('error');
        else expect(status).toBe('error');
        await expect(page.getByTestId('rule-error')).toContainText(entry.error!);
      }
    }
    // The page keeps working.
    await openDemo(page);
    expect(await selectRule(page, 'hggc_api_sum')).toBe('ready');
  });
}

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
import { englishTexts } from './english_texts';
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

// Under lang=zh the engine's lines read in Chinese (web/src/i18n/engine_lines.ts),
// the engine's English line on hover: a refused file, a rule's error, a warning.
test('under lang=zh the engine lines read in Chinese, the English line on hover', async ({ page }) => {
  await page.getByTestId('lang-switch').selectOption('zh');
  const own = mkdtempSync(path.join(os.tmpdir(), 'asys-e2e-corpus-zh-'));
  const drop = async (name: string) => {
    const entry = CORPUS.find((e) => e.name === name)!;
    const file = path.join(own, fileName(entry));
    entry.make(file);
    await dropFile(page, fileName(entry), readFileSync(file));
    return entry;
  };
  await drop('newer-version');
  const banner = page.getByTestId('error-text').last();
  await expect(banner).toHaveText('newer-version.asysrep：asysrep 格式版本 99 比本程序能读取的版本（1）新');
  await expect(banner.locator('span')).toHaveAttribute('title', 'newer-version.asysrep: asysrep format version 99 is newer than this build reads (1)');
  await waitIdle(page);

  const failing = await drop('negative-duration');
  await expect(page.getByTestId('summary-file')).toHaveText(fileName(failing));
  await waitIdle(page);
  expect(await selectRule(page, ruleOf(failing))).toBe('error');
  await expect(page.getByTestId('rule-error')).toContainText('表 HGGC_KERNEL，第 2 行：结束时间 2300 早于开始时间 2400');

  const warned = await drop('null-device');
  await expect(page.getByTestId('summary-file')).toHaveText(fileName(warned));
  await waitIdle(page);
  expect(await selectRule(page, ruleOf(warned))).toBe('ready');
  await expect(page.getByTestId('result-warnings')).toContainText('HGGC_KERNEL：1 行的 deviceId 为 NULL，按无设备处理');
  expect(await englishTexts(page)).toEqual([]);
});

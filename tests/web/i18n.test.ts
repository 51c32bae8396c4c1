import { describe, expect, it } from 'vitest';
import { ruleTitle, optionLabel } from '../../web/src/i18n/decl';
import { initialLang } from '../../web/src/i18n/lang';
import { messages } from '../../web/src/i18n/messages';
import { normalizeRules } from '../../web/src/engine/normalize';

describe('interface language', () => {
  it('takes the remembered choice, else the first Chinese or English browser language, else English', () => {
    expect(initialLang('zh', ['en-US'])).toBe('zh');
    expect(initialLang('en', ['zh-CN'])).toBe('en');
    expect(initialLang(null, ['zh-TW', 'en'])).toBe('zh');
    expect(initialLang(null, ['de-DE', 'en-GB', 'zh'])).toBe('en');
    expect(initialLang('fr', ['fr-FR'])).toBe('en');
    expect(initialLang(null, [])).toBe('en');
  });

  it('has every message in both languages, none left empty or untranslated', () => {
    const keys = Object.keys(messages.en);
    expect(Object.keys(messages.zh)).toEqual(keys);
    // Names that read the same in both (the compare view's Base / Target, as the documentation writes them).
    const same = new Set(['base', 'target']);
    for (const k of keys) {
      const en = messages.en[k as keyof typeof messages.en];
      const zh = messages.zh[k as keyof typeof messages.zh];
      const text = (m: unknown): string =>
        typeof m === 'function' ? String((m as (a: string[]) => string)(['x'])) : typeof m === 'object' ? JSON.stringify(m) : String(m);
      expect(text(zh), k).not.toBe('');
      if (!same.has(k)) expect(text(zh), k).not.toBe(text(en));
    }
    for (const [action, en] of Object.entries(messages.en.shortcuts)) {
      expect(messages.zh.shortcuts[action as keyof typeof messages.zh.shortcuts], action).not.toBe(en);
    }
    expect(messages.zh.linkWaiting(['a.asysrep', 'b.asysrep'])).toBe('此链接保存了 a.asysrep、b.asysrep 的视图：打开这些报告即可恢复。');
  });

  it("shows the declaration's Chinese title and labels, the English ones from an engine without them", () => {
    const [withZh, without] = normalizeRules([
      {
        name: 'hggc_ppu_kern_sum',
        title: 'HGGC PPU Kernel Summary',
        titleZh: 'HGGC PPU kernel汇总',
        options: [{ name: 'rows', kind: 'int', label: 'Maximum number of results', labelZh: '展示结果的最大行数' }],
      },
      { name: 'old', title: 'Old Rule', options: [{ name: 'rows', kind: 'int', label: 'Rows' }] },
    ]);
    expect(ruleTitle(withZh, 'zh')).toBe('HGGC PPU kernel汇总');
    expect(ruleTitle(withZh, 'en')).toBe('HGGC PPU Kernel Summary');
    expect(optionLabel(withZh.options[0], 'zh')).toBe('展示结果的最大行数');
    expect(ruleTitle(without, 'zh')).toBe('Old Rule');
    expect(optionLabel(without.options[0], 'zh')).toBe('Rows');
  });
});

import { describe, expect, it } from 'vitest';
import { choiceLabel, defaultLabel, missingText, optionHelp, optionLabel, ruleDescription, ruleTitle } from '../../web/src/i18n/decl';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { initialLang } from '../../web/src/i18n/lang';
import { messages } from '../../web/src/i18n/messages';
import { rulesFrom } from './wire_rules';

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
    // Names that read the same in both: the product names among the rule list's groups.
    const same = new Set<string>();
    for (const k of keys) {
      const en = messages.en[k as keyof typeof messages.en];
      const zh = messages.zh[k as keyof typeof messages.zh];
      const text = (m: unknown): string =>
        typeof m === 'function' ? String((m as (a: string[]) => string)(['x'])) : typeof m === 'object' ? JSON.stringify(m) : String(m);
      expect(text(zh), k).not.toBe('');
      if (!same.has(k)) expect(text(zh), k).not.toBe(text(en));
    }
    for (const [topic, en] of Object.entries(messages.en.topics)) {
      if (['HGGC', 'HGTX', 'PCCL'].includes(topic)) expect(messages.zh.topics[topic]).toBe(en);
      else expect(messages.zh.topics[topic], topic).toMatch(/[\u4e00-\u9fff]/);
    }
    for (const [action, en] of Object.entries(messages.en.shortcuts)) {
      expect(messages.zh.shortcuts[action as keyof typeof messages.zh.shortcuts], action).not.toBe(en);
    }
    expect(messages.zh.linkWaiting(['a.asysrep', 'b.asysrep'])).toBe('此链接保存了 a.asysrep、b.asysrep 的视图：打开这些报告即可恢复。');
  });

  it("shows the declaration's Chinese title and labels, the English ones from an engine without them", () => {
    const [withZh, without] = rulesFrom([
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

  it("shows the declaration's Chinese description, help and choice labels, the English ones from an engine without them", () => {
    const [withZh, without] = rulesFrom([
      {
        name: 'hggc_ppu_kern_sum',
        title: 'HGGC PPU Kernel Summary',
        description: 'Time spent in each HGGC kernel.',
        descriptionZh: '按照每HGGC kernel名称进行统计。',
        options: [
          {
            name: 'rows',
            kind: 'int',
            label: 'Maximum number of results',
            help: 'Maximum number of kernels to output.',
            helpZh: '限制输出结果的条数。',
            defaultLabel: '-1 (no limit)',
            defaultLabelZh: '-1（无上限）',
          },
          {
            name: 'name-mode',
            kind: 'exclusiveFlags',
            label: 'Kernel Name Mode',
            help: 'Kernel name to group and print by.',
            helpZh: 'Kernel Name的展示模式。',
            defaultLabel: 'Demangled',
            flags: [{ name: 'base', label: 'Base', help: "Use the kernel's short name.", helpZh: '使用kernel的短名称进行统计和输出。' }],
          },
          {
            name: 'usage-mode',
            kind: 'choice',
            choices: ['all', 'unreleased', 'other'],
            choiceLabels: ['All Alloc and Free Trace', 'Unreleased Alloc Trace', ''],
            choiceLabelsZh: ['申请和释放的内存跟踪', '', ''],
          },
        ],
        globalOptions: [{ name: 'ppu-op-config', help: 'One operator rule per entry.', helpZh: '自定义算子识别规则。' }],
      },
      {
        name: 'old',
        title: 'Old Rule',
        description: 'An old rule.',
        options: [{ name: 'rows', kind: 'int', label: 'Rows', help: 'At most this many rows.', defaultLabel: 'None' }],
        globalOptions: [{ name: 'ppu-op-config', help: 'One operator rule per entry.' }],
      },
    ]);
    expect(ruleDescription(withZh, 'zh')).toBe('按照每HGGC kernel名称进行统计。');
    expect(ruleDescription(withZh, 'en')).toBe('Time spent in each HGGC kernel.');
    const [rows, mode, usage] = withZh.options;
    expect(optionHelp(rows, 'zh')).toBe('限制输出结果的条数。');
    expect(optionHelp(rows, 'en')).toBe('Maximum number of kernels to output.');
    expect(defaultLabel(rows, 'zh')).toBe('-1（无上限）');
    expect(defaultLabel(rows, 'en')).toBe('-1 (no limit)');
    // The kernel name modes keep their names; their help is Chinese.
    expect(mode.flags[0].label).toBe('Base');
    expect(optionHelp(mode.flags[0], 'zh')).toBe('使用kernel的短名称进行统计和输出。');
    expect(optionHelp(mode.flags[0], 'en')).toBe("Use the kernel's short name.");
    expect(defaultLabel(mode, 'zh')).toBe('Demangled');
    // A choice without a Chinese label reads its English label, else its value.
    expect([0, 1, 2].map((i) => choiceLabel(usage, i, 'zh'))).toEqual(['申请和释放的内存跟踪', 'Unreleased Alloc Trace', 'other']);
    expect([0, 1, 2].map((i) => choiceLabel(usage, i, 'en'))).toEqual(['All Alloc and Free Trace', 'Unreleased Alloc Trace', 'other']);
    expect(optionHelp(withZh.globalOptions[0], 'zh')).toBe('自定义算子识别规则。');
    expect(optionHelp(withZh.globalOptions[0], 'en')).toBe('One operator rule per entry.');
    // An engine without Chinese texts: the English ones in both languages.
    expect(ruleDescription(without, 'zh')).toBe('An old rule.');
    expect(optionHelp(without.options[0], 'zh')).toBe('At most this many rows.');
    expect(defaultLabel(without.options[0], 'zh')).toBe('None');
    expect(optionHelp(without.globalOptions[0], 'zh')).toBe('One operator rule per entry.');
  });
});

describe('row counts', () => {
  it('say shown of total in either language, singular in English', () => {
    expect(messages.en.rowsShown('1', '1', false, true)).toBe('1 row');
    expect(messages.en.rowsShown('17', '12 345', true, false)).toBe('17 of 12 345 rows');
    expect(messages.zh.rowsShown('35', '35', false, false)).toBe('35 行');
    expect(messages.zh.rowsShown('17', '12 345', true, false)).toBe('17 / 12 345 行');
  });
});

describe('missingText', () => {
  const sentence = 'This report does not contain PPU metric data (table PPU_METRICS, collected with --ppu-metrics-device all).';
  it('is the engine\'s sentence in English, its parts in Chinese', () => {
    expect(missingText(sentence, 'en')).toBe(sentence);
    expect(missingText(sentence, 'zh')).toBe('此报告不包含PPU 指标数据（表 PPU_METRICS，采集选项 --ppu-metrics-device all）。');
    expect(missingText(`The target: ${sentence}`, 'zh')).toBe('目标报告：此报告不包含PPU 指标数据（表 PPU_METRICS，采集选项 --ppu-metrics-device all）。');
    expect(
      missingText('This report does not contain HGGC kernel, memcpy or memset data (table HGGC_KERNEL or HGGC_MEMCPY or HGGC_MEMSET, collected with --trace hggc).', 'zh'),
    ).toBe('此报告不包含HGGC kernel、memcpy 或 memset 数据（表 HGGC_KERNEL 或 HGGC_MEMCPY 或 HGGC_MEMSET，采集选项 --trace hggc）。');
  });
  it('keeps a sentence it does not know', () => {
    expect(missingText('Something else.', 'zh')).toBe('Something else.');
    expect(missingText('This report does not contain new data (table X, collected with --y).', 'zh')).toBe(
      'This report does not contain new data (table X, collected with --y).',
    );
  });
  it('knows every data a rule of the engine declares (DataNeed::what in core/rules)', () => {
    const dir = path.resolve(__dirname, '../../core/rules');
    const whats = new Set<string>();
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.cc') || n.endsWith('.h'))) {
      for (const m of readFileSync(path.join(dir, f), 'utf8').matchAll(/"([A-Za-z][A-Za-z ,/()-]*)",\s*(?:\.collection = )?"--/g)) whats.add(m[1]);
    }
    expect(whats.size).toBeGreaterThan(5);
    for (const what of whats) {
      expect(missingText(`This report does not contain ${what} (table T, collected with --x).`, 'zh'), what).toMatch(/^此报告不包含/);
    }
  });
});

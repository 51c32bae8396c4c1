// The rules' own texts in the interface language: the engine declares each
// in English and Chinese (RuleSpec::titleZh / descriptionZh, OptionSpec::labelZh
// / helpZh / choiceLabelsZh, ...). The Chinese texts are the rule
// documentation's wording; normalize.ts fills in the English ones for an
// engine that has none.
import type { FlagSpec, GlobalOptionSpec, OptionSpec, RuleDecl } from '../engine/types';
import type { Lang } from '../lib/permalink';

export const ruleTitle = (r: Pick<RuleDecl, 'title' | 'titleZh'>, lang: Lang) => (lang === 'zh' ? r.titleZh : r.title);

export const ruleDescription = (r: Pick<RuleDecl, 'description' | 'descriptionZh'>, lang: Lang) =>
  lang === 'zh' ? r.descriptionZh || r.description : r.description;

export const optionLabel = (o: Pick<OptionSpec | GlobalOptionSpec, 'label' | 'labelZh'>, lang: Lang) =>
  lang === 'zh' ? o.labelZh : o.label;

/** An option's, a global option's or a kernel name mode's help. */
export const optionHelp = (o: Pick<OptionSpec | GlobalOptionSpec | FlagSpec, 'help' | 'helpZh'>, lang: Lang) =>
  lang === 'zh' ? o.helpZh || o.help : o.help;

export const groupLabel = (o: Pick<OptionSpec, 'group' | 'groupZh'>, lang: Lang) => (lang === 'zh' ? o.groupZh : o.group);

/** The panel's text for choice `i`: its label in the language, else the English label, else the value. */
export function choiceLabel(
  o: Pick<OptionSpec, 'choices' | 'choiceLabels' | 'choiceLabelsZh'>,
  i: number,
  lang: Lang,
): string {
  return (lang === 'zh' && o.choiceLabelsZh[i]) || o.choiceLabels[i] || o.choices[i];
}

/** How the panel shows the default ("" when the option declares no text for it). */
export const defaultLabel = (o: Pick<OptionSpec, 'defaultLabel' | 'defaultLabelZh'>, lang: Lang) =>
  (lang === 'zh' && o.defaultLabelZh) || o.defaultLabel;

// The data a rule needs, as the engine names it (DataNeed::what, core/rules), in Chinese.
const DATA_ZH: Record<string, string> = {
  'HGGC API data': 'HGGC API 数据',
  'HGGC kernel data': 'HGGC kernel 数据',
  'HGGC memcpy or memset data': 'HGGC memcpy 或 memset 数据',
  'HGGC kernel, memcpy or memset data': 'HGGC kernel、memcpy 或 memset 数据',
  'HGTX data': 'HGTX 数据',
  'OS runtime API data': '操作系统运行时 API 数据',
  'PCCL stage data': 'PCCL stage 数据',
  'PPU device information': 'PPU 设备信息',
  'PPU device memory usage data': 'PPU 设备内存使用数据',
  'PPU metric data': 'PPU 指标数据',
};
/**
 * DataNeed::missingText's parts in Chinese: "不包含DATA（表 T 或 U，采集选项 OPT）",
 * the tables and the option as the profiler spells them; undefined when the
 * data is not known here.
 */
export function missingDataZh(what: string, tables: string, option: string): string | undefined {
  const data = DATA_ZH[what];
  return data && `不包含${data}（表 ${tables.replace(/ or /g, ' 或 ')}，采集选项 ${option}）`;
}

// rulesJson's sentence (core/rules/rule_json.cc, DataNeed::missingText), the compare view's "The target: " before it.
const MISSING = /^(The target: )?This report does not contain (.+) \(table (.+), collected with (.+)\)\.$/;

/**
 * Why a rule cannot run on a report, in the language: the engine's English
 * sentence, or in Chinese from its parts (the data, the tables, the
 * collection option, which stay as the profiler spells them). A sentence
 * or data not known here stays the engine's.
 */
export function missingText(missing: string, lang: Lang): string {
  if (lang !== 'zh') return missing;
  const m = MISSING.exec(missing);
  const zh = m && missingDataZh(m[2], m[3], m[4]);
  if (!zh) return missing;
  return `${m[1] ? '目标报告：' : ''}此报告${zh}。`;
}

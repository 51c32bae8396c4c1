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

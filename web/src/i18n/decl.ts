// The rules' own texts in the interface language: the engine declares each
// in English and Chinese (RuleSpec::titleZh, OptionSpec::labelZh, ...).
import type { GlobalOptionSpec, OptionSpec, RuleDecl } from '../engine/types';
import type { Lang } from '../lib/permalink';

export const ruleTitle = (r: Pick<RuleDecl, 'title' | 'titleZh'>, lang: Lang) => (lang === 'zh' ? r.titleZh : r.title);

export const optionLabel = (o: Pick<OptionSpec | GlobalOptionSpec, 'label' | 'labelZh'>, lang: Lang) =>
  lang === 'zh' ? o.labelZh : o.label;

export const groupLabel = (o: Pick<OptionSpec, 'group' | 'groupZh'>, lang: Lang) => (lang === 'zh' ? o.groupZh : o.group);

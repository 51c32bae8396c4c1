// The rules, grouped by topic; rules the report cannot feed are greyed, with
// the reason (the missing table and the collection option that produces it).
import { useMemo, useState } from 'react';
import type { RuleDecl } from '../engine/types';
import { missingText, ruleDescription, ruleTitle } from '../i18n/decl';
import { useLang } from '../i18n/lang';

export function groupByTopic(rules: RuleDecl[]): [string, RuleDecl[]][] {
  const groups = new Map<string, RuleDecl[]>();
  for (const r of rules) {
    const g = groups.get(r.topic);
    if (g) g.push(r);
    else groups.set(r.topic, [r]);
  }
  return [...groups];
}

export function RuleList({
  rules,
  selected,
  onSelect,
}: {
  rules: RuleDecl[];
  selected: string | null;
  onSelect: (name: string) => void;
}) {
  const { lang, t } = useLang();
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const shown = q
      ? rules.filter((r) => `${r.name} ${r.title} ${r.titleZh} ${r.topic}`.toLowerCase().includes(q))
      : rules;
    return groupByTopic(shown);
  }, [rules, query]);
  return (
    <nav className="rule-list" aria-label="Rules" data-testid="rule-list">
      <input
        className="input rule-search"
        type="search"
        placeholder={t.searchRules}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-label={t.searchRules}
      />
      {groups.length === 0 && <div className="muted small">{t.noRuleMatches}</div>}
      {groups.map(([topic, list]) => (
        <div className="rule-group" key={topic}>
          <div className="rule-topic">{t.topics[topic] ?? topic}</div>
          <ul>
            {list.map((r) => (
              <li key={r.name}>
                <button
                  className={`rule-item${r.name === selected ? ' selected' : ''}${r.available ? '' : ' unavailable'}`}
                  onClick={() => onSelect(r.name)}
                  data-testid={`rule-${r.name}`}
                  data-available={r.available ? 'true' : 'false'}
                  aria-current={r.name === selected ? 'true' : undefined}
                  title={r.available ? ruleDescription(r, lang) || ruleTitle(r, lang) : missingText(r.missing, lang)}
                >
                  <span className="rule-title">{ruleTitle(r, lang)}</span>
                  <span className="rule-name">{r.name}</span>
                  {!r.available && r.missing && <span className="rule-missing">{missingText(r.missing, lang)}</span>}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

// The header's language switch: English / 中文 (remembered by i18n/lang.tsx).
import { useLang } from '../i18n/lang';
import { LANGS, type Lang } from '../lib/permalink';

const NAMES: Record<Lang, string> = { en: 'English', zh: '中文' };

export function LangSwitch() {
  const { lang, setLang, t } = useLang();
  return (
    <select
      className="input header-select"
      value={lang}
      onChange={(e) => setLang(e.target.value as Lang)}
      aria-label={t.language}
      title={t.language}
      data-testid="lang-switch"
    >
      {LANGS.map((l) => (
        <option key={l} value={l}>
          {NAMES[l]}
        </option>
      ))}
    </select>
  );
}

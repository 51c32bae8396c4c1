// The interface language: English or Chinese, switchable in the header and
// remembered in localStorage; the first visit follows the browser's language.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LANGS, type Lang } from '../lib/permalink';
import { messages, type Messages } from './messages';

const STORAGE_KEY = 'asys:lang';

/** The remembered language, else the browser's first preference that is Chinese or English. */
export function initialLang(stored: string | null, browser: readonly string[]): Lang {
  if (stored && (LANGS as readonly string[]).includes(stored)) return stored as Lang;
  for (const b of browser) {
    const l = b.toLowerCase();
    if (l.startsWith('zh')) return 'zh';
    if (l.startsWith('en')) return 'en';
  }
  return 'en';
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage blocked: the browser's language each visit
  }
}

interface LangState {
  lang: Lang;
  setLang: (lang: Lang) => void;
  /** The interface's texts in the language. */
  t: Messages;
}

const LangContext = createContext<LangState | null>(null);

export function LangProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() =>
    initialLang(stored(), typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language])),
  );
  const setLang = useCallback((l: Lang) => {
    setLangState(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      // not remembered; the switch still holds for this page
    }
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  }, [lang]);
  const value = useMemo(() => ({ lang, setLang, t: messages[lang] }), [lang, setLang]);
  return <LangContext.Provider value={value}>{children}</LangContext.Provider>;
}

export function useLang(): LangState {
  const v = useContext(LangContext);
  if (!v) throw new Error('useLang outside LangProvider');
  return v;
}

// The page's error lines (the engine's one-line messages), newest last.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/** One error line, with the id it is dismissed by. */
export interface ErrorItem {
  id: number;
  text: string;
}

interface ErrorsState {
  errors: ErrorItem[];
  pushError: (text: string) => void;
  dismiss: (id: number) => void;
  clear: () => void;
}

const ErrorsContext = createContext<ErrorsState | null>(null);

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function ErrorsProvider({ children }: { children: ReactNode }) {
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const next = useRef(0);
  const pushError = useCallback((text: string) => {
    const id = ++next.current;
    setErrors((es) => [...es.slice(-3), { id, text }]);
  }, []);
  const dismiss = useCallback((id: number) => setErrors((es) => es.filter((e) => e.id !== id)), []);
  const clear = useCallback(() => setErrors([]), []);
  const value = useMemo(() => ({ errors, pushError, dismiss, clear }), [errors, pushError, dismiss, clear]);
  return <ErrorsContext.Provider value={value}>{children}</ErrorsContext.Provider>;
}

export function useErrors(): ErrorsState {
  const v = useContext(ErrorsContext);
  if (!v) throw new Error('useErrors outside ErrorsProvider');
  return v;
}

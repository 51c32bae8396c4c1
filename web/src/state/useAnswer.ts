// An engine's answer to a question asked asynchronously (a paged result's
// pie, slice rows or sums): asked again whenever its key changes, and the
// answer kept with the key it answers, so an older answer arriving late is
// never shown for a newer question; a question dropped on its way (Dropped)
// is no error.
import { useEffect, useRef, useState } from 'react';
import { Dropped } from '../lib/paged_queries';

export interface Answered<T> {
  value: T | null;
  error: string | null;
}

const NONE: Answered<never> = { value: null, error: null };

/** `ask` runs when `key` changes (null: no question); its `still()` turns false once the key has moved on. */
export function useAnswer<T>(key: string | null, ask: (still: () => boolean) => Promise<T>): Answered<T> {
  const [answer, setAnswer] = useState<{ key: string; answered: Answered<T> } | null>(null);
  const askRef = useRef(ask);
  askRef.current = ask;
  useEffect(() => {
    if (key === null) return;
    let live = true;
    askRef.current(() => live).then(
      (value) => live && setAnswer({ key, answered: { value, error: null } }),
      (e) => {
        if (live && !(e instanceof Dropped)) setAnswer({ key, answered: { value: null, error: e instanceof Error ? e.message : String(e) } });
      },
    );
    return () => {
      live = false;
    };
  }, [key]);
  return answer && answer.key === key ? answer.answered : NONE;
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/** A key for an object's identity (a row order): a new array, a new key. */
export function identityKey(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

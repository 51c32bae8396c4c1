// A global option edited as a list (Group Config: one NAME=FRAME_RE/... per
// entry, the CLI's repeated --callstack-group-config). Entries are checked
// by the engine as they are typed; Save applies the list to every rule that
// reads the option, and is refused while an entry is invalid.
import { useEffect, useRef, useState } from 'react';
import type { GlobalOptionSpec } from '../engine/types';
import { optionHelp, optionLabel } from '../i18n/decl';
import { useLang } from '../i18n/lang';

interface Props {
  spec: GlobalOptionSpec;
  /** The entries in force (the defaults when none were saved). */
  applied: string[];
  /** "" when an entry is valid, else the engine's one-line error. */
  check: (value: string) => Promise<string>;
  onSave: (entries: string[]) => Promise<void>;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function ListSetting({ spec, applied, check, onSave }: Props) {
  const { lang, t } = useLang();
  const [draft, setDraft] = useState(applied);
  const [errors, setErrors] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);
  const [saveError, setSaveError] = useState('');
  const cache = useRef(new Map<string, string>());
  // The latest checker without re-checking on every render of the parent.
  const checkRef = useRef(check);
  checkRef.current = check;
  useEffect(() => setDraft(applied), [applied]);

  // Check every entry (each distinct text once) shortly after typing stops.
  useEffect(() => {
    let live = true;
    setChecking(true);
    const timer = setTimeout(async () => {
      const out: string[] = [];
      for (const entry of draft) {
        if (entry.trim() === '') {
          out.push(`empty: write ${spec.placeholder}, or remove the entry`);
          continue;
        }
        let e = cache.current.get(entry);
        if (e === undefined) {
          e = await checkRef.current(entry).catch((x) => (x instanceof Error ? x.message : String(x)));
          cache.current.set(entry, e);
        }
        out.push(e);
      }
      if (!live) return;
      setErrors(out);
      setChecking(false);
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [draft, spec.placeholder]);

  const invalid = errors.some(Boolean);
  const dirty = !sameList(draft, applied);
  const canSave = dirty && !invalid && !checking;
  const builtIn = sameList(applied, spec.defaults);
  const edit = (i: number, value: string) => setDraft((d) => d.map((x, j) => (j === i ? value : x)));
  const move = (i: number, by: number) =>
    setDraft((d) => {
      const j = i + by;
      if (j < 0 || j >= d.length) return d;
      const next = [...d];
      [next[i], next[j]] = [next[j], next[i]];
      return next;
    });
  const save = async () => {
    setSaveError('');
    try {
      await onSave(draft);
    } catch (e) {
      setSaveError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <details className="list-setting" data-testid={`global-${spec.name}`}>
      <summary title={optionHelp(spec, lang)}>
        <span className="list-setting-label">{optionLabel(spec, lang)}</span>
        <span className="muted small">
          {t.entryCount(applied.length)}
          {builtIn ? t.builtInMark : ''}
          {dirty ? t.notSaved : ''}
        </span>
      </summary>
      <p className="muted small list-setting-help">{optionHelp(spec, lang)}</p>
      <ol className="list-setting-entries">
        {draft.map((entry, i) => (
          <li key={i} className={errors[i] ? 'invalid' : ''}>
            <div className="list-setting-row">
              <input
                className="input text"
                type="text"
                value={entry}
                placeholder={spec.placeholder}
                spellCheck={false}
                aria-label={t.entryLabel(optionLabel(spec, lang), i + 1)}
                data-testid={`global-entry-${i}`}
                onChange={(e) => edit(i, e.target.value)}
              />
              <button type="button" className="link-button small" title={t.moveUp} disabled={i === 0} onClick={() => move(i, -1)}>
                ↑
              </button>
              <button
                type="button"
                className="link-button small"
                title={t.moveDown}
                disabled={i === draft.length - 1}
                onClick={() => move(i, 1)}
              >
                ↓
              </button>
              <button
                type="button"
                className="link-button small"
                title={t.remove}
                data-testid={`global-remove-${i}`}
                onClick={() => setDraft((d) => d.filter((_, j) => j !== i))}
              >
                ✕
              </button>
            </div>
            {errors[i] && (
              <span className="setting-error" data-testid={`global-error-${i}`}>
                {errors[i]}
              </span>
            )}
          </li>
        ))}
      </ol>
      {draft.length === 0 && <p className="muted small">{t.noEntries}</p>}
      <div className="list-setting-actions">
        <button type="button" className="link-button small" data-testid="global-add" onClick={() => setDraft((d) => [...d, ''])}>
          {t.add}
        </button>
        <button
          type="button"
          className="link-button small"
          disabled={sameList(draft, spec.defaults)}
          onClick={() => setDraft(spec.defaults)}
        >
          {t.builtInList}
        </button>
        <button type="button" className="link-button small" disabled={!dirty} onClick={() => setDraft(applied)}>
          {t.discardChanges}
        </button>
        <button
          type="button"
          className="button small"
          data-testid="global-save"
          disabled={!canSave}
          title={invalid ? t.fixInvalidFirst : undefined}
          onClick={save}
        >
          {t.save}
        </button>
        {saveError && <span className="setting-error">{saveError}</span>}
      </div>
    </details>
  );
}

// The keyboard shortcuts: one table drives both the key handler (App.tsx)
// and the list `?` opens (components/ShortcutsDialog.tsx).

export type ShortcutAction = 'help' | 'searchRules' | 'statsView' | 'compareView' | 'theme' | 'language';

export interface Shortcut {
  /** KeyboardEvent.key values that trigger it. */
  keys: string[];
  action: ShortcutAction;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['?'], action: 'help' },
  { keys: ['/'], action: 'searchRules' },
  { keys: ['s'], action: 'statsView' },
  { keys: ['c'], action: 'compareView' },
  { keys: ['t'], action: 'theme' },
  { keys: ['l'], action: 'language' },
];

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** Handled already (the timeline's W/A/S/D). */
  defaultPrevented?: boolean;
  /** The element that has the focus: typing in a field is never a shortcut. */
  target: { tagName?: string; isContentEditable?: boolean; closest?: (selector: string) => unknown } | null;
}

/**
 * Marks a widget that owns the keys typed while it has the focus (a table's
 * rows, the timeline, a tree): there a letter is the widget's, never a view
 * switch, theme or language, whether or not the widget uses that letter
 * today. `?` and `/` still act, as they do in Nsight Systems' views.
 */
export const OWN_KEYS_ATTRIBUTE = 'data-own-keys';
/** Spread on the widget's focusable element: `<div {...OWN_KEYS} ...>`. */
export const OWN_KEYS = { [OWN_KEYS_ATTRIBUTE]: '' } as const;

const EDITABLE = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** The action a key press asks for, or null (a modifier held, typing in a field, or handled where it was pressed). */
export function shortcutFor(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return null;
  const t = e.target;
  if (t && (EDITABLE.has(t.tagName ?? '') || t.isContentEditable)) return null;
  if (/^[a-z]$/i.test(e.key) && t?.closest?.(`[${OWN_KEYS_ATTRIBUTE}]`)) return null;
  return SHORTCUTS.find((s) => s.keys.includes(e.key))?.action ?? null;
}

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
  target: { tagName?: string; isContentEditable?: boolean } | null;
}

const EDITABLE = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** The action a key press asks for, or null (a modifier held, typing in a field, or handled where it was pressed). */
export function shortcutFor(e: KeyLike): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return null;
  const t = e.target;
  if (t && (EDITABLE.has(t.tagName ?? '') || t.isContentEditable)) return null;
  return SHORTCUTS.find((s) => s.keys.includes(e.key))?.action ?? null;
}

import { describe, expect, it } from 'vitest';
import { SHORTCUTS, shortcutFor, type KeyLike } from '../../web/src/lib/shortcuts';
import { initialTheme } from '../../web/src/state/theme';

const press = (key: string, more: Partial<KeyLike> = {}): KeyLike => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: { tagName: 'BODY' },
  ...more,
});

describe('keyboard shortcuts', () => {
  it('maps each key of the table to its action', () => {
    expect(shortcutFor(press('?'))).toBe('help');
    expect(shortcutFor(press('/'))).toBe('searchRules');
    expect(shortcutFor(press('s'))).toBe('statsView');
    expect(shortcutFor(press('c'))).toBe('compareView');
    expect(shortcutFor(press('t'))).toBe('theme');
    expect(shortcutFor(press('l'))).toBe('language');
    expect(shortcutFor(press('x'))).toBeNull();
    // One key, one action.
    const keys = SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is never a shortcut while typing in a field or with a modifier held', () => {
    for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT']) expect(shortcutFor(press('s', { target: { tagName } }))).toBeNull();
    expect(shortcutFor(press('s', { target: { tagName: 'DIV', isContentEditable: true } }))).toBeNull();
    expect(shortcutFor(press('c', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('l', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press('t', { altKey: true }))).toBeNull();
    expect(shortcutFor(press('?', { target: null }))).toBe('help');
    // The timeline's own S (zoom out) is no view switch.
    expect(shortcutFor(press('s', { defaultPrevented: true }))).toBeNull();
  });

  it('leaves letters to a focused widget that owns its keys, not ? and /', () => {
    // A stand-in for Element.closest: inside a widget marked data-own-keys, or not.
    const inWidget = { tagName: 'DIV', closest: (sel: string) => (sel === '[data-own-keys]' ? {} : null) };
    const outside = { tagName: 'DIV', closest: () => null };
    for (const key of ['s', 'c', 't', 'l', 'S']) expect(shortcutFor(press(key, { target: inWidget }))).toBeNull();
    expect(shortcutFor(press('?', { target: inWidget }))).toBe('help');
    expect(shortcutFor(press('/', { target: inWidget }))).toBe('searchRules');
    expect(shortcutFor(press('s', { target: outside }))).toBe('statsView');
    expect(shortcutFor(press('t', { target: outside }))).toBe('theme');
  });
});

describe('theme', () => {
  it('takes the remembered theme, else the system preference', () => {
    expect(initialTheme('dark', false)).toBe('dark');
    expect(initialTheme('light', true)).toBe('light');
    expect(initialTheme(null, true)).toBe('dark');
    expect(initialTheme(null, false)).toBe('light');
    expect(initialTheme('blue', true)).toBe('dark');
  });
});

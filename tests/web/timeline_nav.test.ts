// The timeline's keys (Nsight Systems' navigation) and its undo history,
// each expected value read off the key table and the history rules by hand.
import { describe, expect, it } from 'vitest';
import { HISTORY_LIMIT, KEY_PAN, KEY_ZOOM_IN, navActionFor, popStep, pushStep, type NavStep } from '../../web/src/lib/timeline_nav';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  navActionFor({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('timeline keys', () => {
  it('+ and = zoom in to 0.8 of the window, - zooms out to 1.25, as W and S do', () => {
    expect(key('+')).toEqual({ kind: 'zoom', factor: 0.8 });
    expect(key('=')).toEqual({ kind: 'zoom', factor: 0.8 });
    expect(key('W')).toEqual({ kind: 'zoom', factor: 0.8 });
    expect(key('-')).toEqual({ kind: 'zoom', factor: 1.25 });
    expect(key('s')).toEqual({ kind: 'zoom', factor: 1.25 });
    expect(KEY_ZOOM_IN).toBe(0.8);
  });

  it('the arrows pan a fifth of the window, as A and D do', () => {
    expect(key('ArrowLeft')).toEqual({ kind: 'pan', fraction: -0.2 });
    expect(key('ArrowRight')).toEqual({ kind: 'pan', fraction: 0.2 });
    expect(key('a')).toEqual({ kind: 'pan', fraction: -KEY_PAN });
  });

  it('Backspace undoes, Z zooms to the selection, F filters to it', () => {
    expect(key('Backspace')).toEqual({ kind: 'back' });
    expect(key('z')).toEqual({ kind: 'zoomToSelection' });
    expect(key('F')).toEqual({ kind: 'filterToSelection' });
  });

  it('a modifier held or another key is none of the timeline\'s', () => {
    expect(key('z', { ctrlKey: true })).toBeNull();
    expect(key('f', { metaKey: true })).toBeNull();
    expect(key('ArrowUp')).toBeNull();
    expect(key('x')).toBeNull();
    expect(key('Enter')).toBeNull();
  });
});

describe('the undo history', () => {
  const v = (from: number, to: number) => ({ from, to });

  it('steps come back last first, each with its window and its filter', () => {
    let h: NavStep[] = [];
    h = pushStep(h, { viewport: v(0, 100) });
    h = pushStep(h, { viewport: v(10, 50), filterTime: '' });
    h = pushStep(h, { viewport: v(20, 30) });
    const a = popStep(h)!;
    expect(a.step).toEqual({ viewport: v(20, 30) });
    const b = popStep(a.rest)!;
    expect(b.step).toEqual({ viewport: v(10, 50), filterTime: '' });
    const c = popStep(b.rest)!;
    expect(c.step).toEqual({ viewport: v(0, 100) });
    expect(popStep(c.rest)).toBeNull();
  });

  it('the same window twice is one step; a filter with the same window is its own', () => {
    let h: NavStep[] = [];
    h = pushStep(h, { viewport: v(0, 100) });
    h = pushStep(h, { viewport: v(0, 100) });
    expect(h).toHaveLength(1);
    h = pushStep(h, { viewport: v(0, 100), filterTime: '1ms,2ms' });
    expect(h).toHaveLength(2);
  });

  it('keeps the newest HISTORY_LIMIT steps', () => {
    let h: NavStep[] = [];
    for (let i = 0; i <= HISTORY_LIMIT; i++) h = pushStep(h, { viewport: v(i, i + 10) });
    expect(h).toHaveLength(HISTORY_LIMIT);
    expect(h[0].viewport).toEqual(v(1, 11));
    expect(h[HISTORY_LIMIT - 1].viewport).toEqual(v(HISTORY_LIMIT, HISTORY_LIMIT + 10));
  });

  it('pushing does not change the history it was given', () => {
    const h: NavStep[] = [{ viewport: v(0, 1) }];
    pushStep(h, { viewport: v(2, 3) });
    expect(h).toEqual([{ viewport: v(0, 1) }]);
  });
});

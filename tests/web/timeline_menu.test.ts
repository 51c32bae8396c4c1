// The right-click menu's "Go to" targets and the scroll that shows a row.
import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../web/src/engine/timeline_types';
import { SLICE_KINDS } from '../../web/src/engine/timeline_types';
import { linkTargets, scrollToMiddle, scrollToShow } from '../../web/src/lib/timeline_menu';

const ev = (kind: (typeof SLICE_KINDS)[number], track: number): TimelineEvent =>
  ({ track, event: 0, start: 0n, end: 1n, lane: 0, kind: SLICE_KINDS.indexOf(kind), name: kind }) as TimelineEvent;

describe('Go to Host API / Device Activity', () => {
  it('from a kernel: its launching call; no device activity', () => {
    const call = ev('api', 5);
    expect(linkTargets({ selected: ev('kernel', 1), related: [call] })).toEqual([
      { to: 'hostApi', event: call },
      { to: 'deviceActivity', event: null },
    ]);
  });

  it('from an API call (or a failed one): the first activity it launched; no host API', () => {
    const k1 = ev('kernel', 1), k2 = ev('memcpy', 2);
    expect(linkTargets({ selected: ev('apiError', 5), related: [k1, k2] })).toEqual([
      { to: 'hostApi', event: null },
      { to: 'deviceActivity', event: k1 },
    ]);
  });

  it('nothing selected, or nothing linked: both listed, neither with a target', () => {
    const none = [{ to: 'hostApi', event: null }, { to: 'deviceActivity', event: null }];
    expect(linkTargets(null)).toEqual(none);
    expect(linkTargets({ selected: ev('hgtx', 3), related: [] })).toEqual(none);
  });
});

describe('scrollToShow', () => {
  it('a row in view leaves the scroll as it is', () => {
    expect(scrollToShow(100, 20, 50, 200)).toBe(50);
  });
  it('a row above the view scrolls up to its top; below, just far enough to show its bottom', () => {
    expect(scrollToShow(10, 20, 50, 200)).toBe(10);
    expect(scrollToShow(400, 20, 50, 200)).toBe(220); // 400 + 20 - 200
  });
  it('a row taller than the view shows its top', () => {
    expect(scrollToShow(400, 300, 50, 200)).toBe(400);
  });
});

describe('scrollToMiddle', () => {
  it('puts the row in the middle of the view: its centre at half the view', () => {
    // Row [400, 420): centre 410; a 200 px view's middle is 100 below the scroll: 310.
    expect(scrollToMiddle(400, 20, 200)).toBe(310);
    // An odd height: centre 400 + 15 / 2 = 407.5, less 100, rounded: 308.
    expect(scrollToMiddle(400, 15, 200)).toBe(308);
  });
  it('never above the top; a row taller than the view shows its top', () => {
    expect(scrollToMiddle(30, 20, 200)).toBe(0);
    expect(scrollToMiddle(400, 300, 200)).toBe(400);
  });
});

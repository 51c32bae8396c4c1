import { describe, expect, it } from 'vitest';
import { filterTimeValue, parseDurationNs } from '../../web/src/lib/time';

describe('time range inputs', () => {
  it('reads durations with units as nanoseconds', () => {
    expect(parseDurationNs('1500')).toBe(1500);
    expect(parseDurationNs('120ms')).toBe(120_000_000);
    expect(parseDurationNs('1.5 s')).toBe(1_500_000_000);
    expect(parseDurationNs('300us')).toBe(300_000);
    expect(parseDurationNs('2µs')).toBe(2000);
    expect(parseDurationNs(' ')).toBeNull();
    expect(parseDurationNs('-5')).toBeUndefined();
    expect(parseDurationNs('soon')).toBeUndefined();
  });

  it('writes --filter-time START/END, either side optional', () => {
    expect(filterTimeValue('100ms', '200ms')).toEqual({ value: '100000000/200000000' });
    expect(filterTimeValue('', '1s')).toEqual({ value: '/1000000000' });
    expect(filterTimeValue('5', '')).toEqual({ value: '5/' });
    expect(filterTimeValue('', '')).toEqual({ value: '' });
    expect(filterTimeValue('2s', '1s')).toEqual({ error: 'the end must come after the start' });
    expect(filterTimeValue('x', '')).toHaveProperty('error');
  });
});

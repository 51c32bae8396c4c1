// One time zero (issue 23): the pure time arithmetic, on values worked out by hand.
import { describe, expect, it } from 'vitest';
import {
  absoluteAt,
  cellSinceZero,
  formatAtSinceZero,
  formatSinceZero,
  isTimePointColumn,
  sinceZero,
  timeZeroOf,
  zeroShift,
} from '../../web/src/lib/time_zero';
import { filterTimeOf } from '../../web/src/lib/timeline';
import { filterTimeValue } from '../../web/src/lib/time';

// A Kineto trace's capture start in epoch ns (the alexnet trace's order of magnitude): past 2^53 = 9007199254740992.
const EPOCH_ZERO = 1694128201424306000n;

describe('the time zero', () => {
  it('is the capture start, else 0 (what --filter-time counts from)', () => {
    expect(timeZeroOf(EPOCH_ZERO)).toBe(EPOCH_ZERO);
    expect(timeZeroOf(0n)).toBe(0n);
    expect(timeZeroOf(null)).toBe(0n);
    expect(timeZeroOf(undefined)).toBe(0n);
  });

  it('counts epoch ns past 2^53 exactly', () => {
    // 1694128201639506123 - 1694128201424306000 = 215200123 (by hand).
    expect(sinceZero(1694128201639506123n, EPOCH_ZERO)).toBe(215_200_123);
    // Doubles could not: both times round to multiples of 256 ns at this size.
    expect(Number(1694128201639506123n) - Number(EPOCH_ZERO)).not.toBe(215_200_123);
    expect(sinceZero(EPOCH_ZERO, EPOCH_ZERO)).toBe(0);
    expect(sinceZero(EPOCH_ZERO - 3000n, EPOCH_ZERO)).toBe(-3000);
  });

  it('shows a time since the zero in the unit that reads best, signed where the timeline shows it', () => {
    expect(formatSinceZero(1694128201639506123n, EPOCH_ZERO)).toBe('215.2 ms');
    expect(formatAtSinceZero(1694128201639506123n, EPOCH_ZERO)).toBe('+215.2 ms');
    // The demo's zero is 0: a time is its own offset. 371 400 000 ns = 371.4 ms.
    expect(formatSinceZero(371_400_000n, 0n)).toBe('371.4 ms');
    expect(formatAtSinceZero(0n, 0n)).toBe('+0 ns');
    expect(formatAtSinceZero(EPOCH_ZERO - 3000n, EPOCH_ZERO)).toBe('-3.0 µs');
    expect(formatSinceZero(EPOCH_ZERO + 1_500_000_000n, EPOCH_ZERO)).toBe('1.500 s');
  });

  it('turns a view offset from the timeline origin into an absolute time and back to the zero', () => {
    // The timeline's origin is its first event, 156.2 ms after a capture start of 0 (the demo's layout):
    // an offset of 215.2 ms is 371.4 ms since the zero.
    const origin = 156_200_000n;
    expect(absoluteAt(origin, 215_200_000)).toBe(371_400_000n);
    expect(absoluteAt(origin, 0.4)).toBe(156_200_000n);
    expect(absoluteAt(origin, 0.6)).toBe(156_200_001n);
    expect(zeroShift(origin, 0n)).toBe(156_200_000);
    expect(215_200_000 + zeroShift(origin, 0n)).toBe(371_400_000);
    // Epoch: the origin 2 000 ns after the zero.
    expect(zeroShift(EPOCH_ZERO + 2000n, EPOCH_ZERO)).toBe(2000);
    expect(absoluteAt(EPOCH_ZERO + 2000n, 1_000_000)).toBe(1694128201425308000n);
  });

  it('a selection filtered and a range typed give the same --filter-time from the same zero', () => {
    // Dragged on the timeline: [zero + 100 ms, zero + 250 ms] absolute.
    const fromTimeline = filterTimeOf(EPOCH_ZERO + 100_000_000n, EPOCH_ZERO + 250_000_000n, EPOCH_ZERO);
    // Typed in the statistics range: 100ms to 250ms.
    const typed = filterTimeValue('100ms', '250ms');
    expect(fromTimeline).toBe('100000000/250000000');
    expect(typed).toEqual({ value: fromTimeline });
    // No capture start: both count from 0.
    expect(filterTimeOf(5000n, 9000n, null)).toBe('5000/9000');
  });

  it('gives a table time cell as ns since the zero, exactly', () => {
    // A double cell (the demo: zero 0).
    expect(cellSinceZero(371_400_000, 0n)).toBe(371_400_000);
    expect(cellSinceZero(371_400_000, 1_000n)).toBe(371_399_000);
    // An int64 cell past 2^53 (Kineto): 1694128201424386000 - 1694128201424306000 = 80000.
    expect(cellSinceZero(1694128201424386000n, EPOCH_ZERO)).toBe(80_000);
    // Against a zero of 0 it stays past 2^53: a BigInt, exact.
    expect(cellSinceZero(1694128201424386000n, 0n)).toBe(1694128201424386000n);
    expect(cellSinceZero(-5, 0n)).toBe(-5);
    // Two doubles within 2^53 whose difference is not: 9e15 - (-9e15) = 18e15, a BigInt.
    expect(cellSinceZero(9_000_000_000_000_000, -9_000_000_000_000_000n)).toBe(18_000_000_000_000_000n);
  });

  it('knows the time point columns from the durations', () => {
    for (const name of ['Start', 'End', 'API Start', 'Kernel Start', 'Queue Start', 'Orig Start', 'Projected Start', 'OP Start', 'Activity Start', 'Time']) {
      expect(isTimePointColumn(name, 'ns'), name).toBe(true);
    }
    for (const name of ['Duration', 'Total Time', 'Kernel Dur', 'API Dur', 'Avg', 'Proj Avg', 'Orig Duration', 'Queue Dur', 'PPU Active Time', 'Trans Time']) {
      expect(isTimePointColumn(name, 'ns'), name).toBe(false);
    }
    // hggc_ppu_kern_sum's Time is a share, not a time.
    expect(isTimePointColumn('Time', '%')).toBe(false);
    expect(isTimePointColumn('Start', '')).toBe(false);
  });
});

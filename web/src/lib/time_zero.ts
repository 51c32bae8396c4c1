// One time zero per report (issue 23): every time the viewer shows or reads
// (the timeline's axis, tooltips and readouts, the details, the statistics
// range, the tables' time columns) counts from the report's capture start,
// the point `--filter-time START/END` counts from (META_DATA captureStart;
// 0 when the report has none, as core/analysis/time_window.cc takes it).
// Absolute times stay exact BigInt ns on the report's clock (a Kineto
// trace's epoch ns, 1694128201424306000, are past 2^53); a time since the
// zero is a number, exact up to 2^53 ns (104 days).
import { formatDurationNs } from './format';

/** The report's time zero (absolute ns): its capture start, else 0 (what --filter-time counts from). */
export function timeZeroOf(captureStart: bigint | null | undefined): bigint {
  return captureStart ?? 0n;
}

/** An absolute time as ns since the zero. */
export function sinceZero(abs: bigint, zero: bigint): number {
  return Number(abs - zero);
}

/** An absolute time as the viewer shows it: "215.2 ms" after the zero ("-3.0 µs" before it). */
export function formatSinceZero(abs: bigint, zero: bigint): string {
  return formatDurationNs(sinceZero(abs, zero));
}

/** The same with its sign always written, as the timeline's readouts show it: "+215.2 ms", "-3.0 µs". */
export function formatAtSinceZero(abs: bigint, zero: bigint): string {
  const d = sinceZero(abs, zero);
  return d < 0 ? formatDurationNs(d) : `+${formatDurationNs(d)}`;
}

/**
 * An absolute time from a view offset: the timeline keeps its window as ns
 * offsets (doubles) from an exact origin; a point on it is the origin plus
 * the offset rounded to whole ns (what a filter sends the engine).
 */
export function absoluteAt(origin: bigint, offset: number): bigint {
  return origin + BigInt(Math.round(offset));
}

/** ns from the zero to a view's origin: a view offset plus this is the time since the zero. */
export function zeroShift(origin: bigint, zero: bigint): number {
  return Number(origin - zero);
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A table's time cell (absolute ns: a double up to 2^53, a BigInt past it)
 * as ns since the zero, exactly: a number when it fits in one, else a BigInt.
 */
export function cellSinceZero(v: number | bigint, zero: bigint): number | bigint {
  if (typeof v === 'number' && zero <= SAFE && zero >= -SAFE) {
    // Both whole doubles within 2^53: their difference is exact when it stays there (no BigInt a cell: a
    // search indexes a million of them).
    const d = Math.trunc(v) - Number(zero);
    if (Number.isSafeInteger(d)) return d;
  }
  const d = (typeof v === 'bigint' ? v : BigInt(Math.trunc(v))) - zero;
  return d <= SAFE && d >= -SAFE ? Number(d) : d;
}


/**
 * A result column that holds time points on the report's clock (not
 * durations): unit ns and named Start or End (API Start, Kernel Start,
 * Queue Start, Orig Start, Projected Start, OP Start, ...), or Time (the
 * device memory timeline's sample time). Durations (Duration, Total Time,
 * Avg, Kernel Dur) and Time in % are not.
 */
export function isTimePointColumn(name: string, unit: string): boolean {
  return unit === 'ns' && (/(^|\s)(Start|End)$/.test(name) || name === 'Time');
}

// Number and size formatting for the result table and the summary.

/** U+202F NARROW NO-BREAK SPACE: a thin digit-group separator that never wraps. */
export const THIN_SPACE = '\u202f';

function groupDigits(digits: string): string {
  let out = '';
  const n = digits.length;
  for (let i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 === 0) out += THIN_SPACE;
    out += digits[i];
  }
  return out;
}

/** 393100090 -> "393 100 090" (thin spaces); NaN -> "-"; a BigInt exactly. */
export function formatInt(v: number | bigint): string {
  if (typeof v === 'bigint') return (v < 0n ? '-' : '') + groupDigits((v < 0n ? -v : v).toString());
  if (!Number.isFinite(v)) return '-';
  const t = Math.trunc(v);
  const neg = t < 0;
  // BigInt keeps digits exact above 2^53 (the engine's int64 cells pass through doubles).
  const digits = Math.abs(t) < 1e21 ? BigInt(Math.abs(t)).toString() : String(Math.abs(t));
  return (neg ? '-' : '') + groupDigits(digits);
}

/** 84.9 -> "84.9", 12345.25 -> "12 345.3"; always one decimal; NaN -> "-". */
export function formatDecimal1(v: number): string {
  if (!Number.isFinite(v)) return '-';
  const fixed = Math.abs(v).toFixed(1);
  const dot = fixed.indexOf('.');
  const neg = v < 0 && Number(fixed) !== 0;
  return (neg ? '-' : '') + groupDigits(fixed.slice(0, dot)) + fixed.slice(dot);
}

/** A nanosecond span in the unit that reads best: "1.234 s", "56.7 ms", "890 ns". */
export function formatDurationNs(ns: number): string {
  if (!Number.isFinite(ns)) return '-';
  const a = Math.abs(ns);
  if (a >= 1e9) return `${(ns / 1e9).toFixed(3)} s`;
  if (a >= 1e6) return `${(ns / 1e6).toFixed(1)} ms`;
  if (a >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.trunc(ns)} ns`;
}

/** 1536 -> "1.5 KiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '-';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

/** "1 row" / "12 345 rows". */
export function formatCount(n: number, noun = 'row'): string {
  return `${formatInt(n)} ${noun}${n === 1 ? '' : 's'}`;
}

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

/**
 * Text copied from the tables, plain: the digit-group separators between
 * digits dropped ("393 100 090 ns" -> "393100090 ns"), like the CSV/XLSX
 * exports; any other character, a thin space between words included, kept.
 */
export function ungroupDigits(text: string): string {
  return text.replace(/(\d)\u202f(?=\d)/g, '$1');
}

/** 393100090 -> "393 100 090" (thin spaces; none with `separators` false); NaN -> "-"; a BigInt exactly. */
export function formatInt(v: number | bigint, separators = true): string {
  const group = (neg: boolean, digits: string) => (neg ? '-' : '') + (separators ? groupDigits(digits) : digits);
  if (typeof v === 'bigint') return group(v < 0n, (v < 0n ? -v : v).toString());
  if (!Number.isFinite(v)) return '-';
  const t = Math.trunc(v);
  const a = Math.abs(t);
  // A double prints its digits exactly up to 2^53; BigInt keeps them exact above (the engine's int64 cells pass through doubles).
  return group(t < 0, a <= Number.MAX_SAFE_INTEGER ? String(a) : a < 1e21 ? BigInt(a).toString() : String(a));
}

/** 84.9 -> "84.9", 12345.25 -> "12 345.3" (no separators with `separators` false); always one decimal; NaN -> "-". */
export function formatDecimal1(v: number, separators = true): string {
  if (!Number.isFinite(v)) return '-';
  const fixed = Math.abs(v).toFixed(1);
  const dot = fixed.indexOf('.');
  const neg = v < 0 && Number(fixed) !== 0;
  const whole = fixed.slice(0, dot);
  return (neg ? '-' : '') + (separators ? groupDigits(whole) : whole) + fixed.slice(dot);
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

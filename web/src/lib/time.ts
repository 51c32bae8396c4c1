// Time inputs of the statistics range: "1500", "120ms", "1.5 s", "300us" -> ns.

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9 };

/** A duration typed by a person -> whole nanoseconds; "" -> null; undefined when malformed. */
export function parseDurationNs(text: string): number | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  const m = /^(\d+(?:\.\d+)?)\s*(ns|us|µs|ms|s)?$/.exec(t);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_NS[m[2] ?? 'ns']);
}

/** The CLI's --filter-time value START/END (ns from the capture start; either side may be empty). */
export function filterTimeValue(from: string, to: string): { value: string } | { error: string } {
  const a = parseDurationNs(from);
  const b = parseDurationNs(to);
  if (a === undefined) return { error: `"${from}" is not a time (e.g. 1500, 120ms, 1.5s)` };
  if (b === undefined) return { error: `"${to}" is not a time (e.g. 1500, 120ms, 1.5s)` };
  if (a !== null && b !== null && b <= a) return { error: 'the end must come after the start' };
  if (a === null && b === null) return { value: '' };
  return { value: `${a ?? ''}/${b ?? ''}` };
}

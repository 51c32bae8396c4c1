// The advice tab's findings: the expert rules' results turned into a short
// list of problems, each with the rule row it comes from (to open the rule's
// table on it) and, where the row has one, its place in time (to show it on
// the timeline). Pure: results in, findings out; the words are in
// i18n/messages.ts (advice*), the thresholds and their reasons in docs/advice.md.
import { cellValue, findColumn, type DecodedResult } from './result';

/** The rules the advice reads, with the options it runs them with (the rules' defaults otherwise). */
export const ADVICE_RULES = {
  ppu_gaps: {},
  ppu_time_util: {},
  pccl_desync_summary: {},
  ppu_op_sum: {},
  hggc_ppu_trace: {},
  device_memory_usage_summary: { 'usage-mode': 'unreleased-size' },
} as const satisfies Record<string, Record<string, string>>;
export type AdviceRule = keyof typeof ADVICE_RULES;
export type AdviceInputs = Partial<Record<AdviceRule, DecodedResult>>;

/** Thresholds (docs/advice.md says why each is where it is). */
export const ADVICE_THRESHOLDS = {
  /** pccl_desync_summary: a collective kernel whose average desync is above this share of its time. */
  desyncAvgPercent: 20,
  /** ... and which takes at least this share of all collective time (a rare kernel is noise). */
  desyncMinTimePercent: 1,
  /** ppu_op_sum: the top operator keeps the device busy for less than this share of its time. */
  topOpActivePercent: 80,
  /** device_memory_usage_summary: unreleased memory per process and device at or above this many bytes. */
  unreleasedBytes: 1 << 20,
} as const;

export type FindingKind = 'ppu_gaps' | 'ppu_time_util' | 'pccl_desync' | 'top_operator' | 'pageable_memcpy' | 'unreleased_memory';

export interface Finding {
  kind: FindingKind;
  /** The rule whose table holds the finding's rows (run with ADVICE_RULES[rule]). */
  rule: AdviceRule;
  /** The row of that table the finding points at. */
  row: number;
  /** What the sentence needs: counts, times in ns, percentages, names. */
  params: Record<string, number | string>;
  /** Its place on the timeline (the row's span, in the engine's time as the tables' links use), when the row has one. */
  span?: { name: string; start: bigint; end: bigint };
}

function num(t: DecodedResult, row: number, col: number): number {
  const v = col < 0 ? null : cellValue(t, row, col);
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : NaN;
}

function text(t: DecodedResult, row: number, col: number): string {
  const v = col < 0 ? null : cellValue(t, row, col);
  return v === null ? '' : String(v);
}

/** The row's first time span, as the table's "Show in timeline" uses it. */
function spanOf(t: DecodedResult, row: number): Finding['span'] {
  const s = t.spans[0];
  return s && row < s.start.length ? { name: s.name, start: s.start[row], end: s.end[row] } : undefined;
}

/** The row with the largest value in `col` (the first on ties), or -1. */
function argMax(t: DecodedResult, col: number): number {
  let best = -1;
  for (let r = 0; r < t.rowCount; r++) if (num(t, r, col) > (best < 0 ? -Infinity : num(t, best, col))) best = r;
  return best;
}

/** ppu_gaps lists only gaps above its `gap` option: any row is a finding; the longest one is shown. */
export function gapFinding(t: DecodedResult): Finding | null {
  const dur = findColumn(t, 'Duration');
  const row = argMax(t, dur);
  if (row < 0) return null;
  let total = 0;
  for (let r = 0; r < t.rowCount; r++) total += num(t, r, dur) || 0;
  const d = num(t, row, dur);
  return {
    kind: 'ppu_gaps',
    rule: 'ppu_gaps',
    row,
    params: { count: t.rowCount, total, longest: d, pid: text(t, row, findColumn(t, 'PID')), device: text(t, row, findColumn(t, 'Device ID')) },
    span: spanOf(t, row),
  };
}

/** ppu_time_util lists only stretches below its `threshold`: the least used (then longest) one is shown. */
export function utilFinding(t: DecodedResult): Finding | null {
  const use = findColumn(t, 'In-Use');
  const dur = findColumn(t, 'Duration');
  let row = -1;
  let total = 0;
  for (let r = 0; r < t.rowCount; r++) {
    total += num(t, r, dur) || 0;
    if (!Number.isFinite(num(t, r, use))) continue;
    if (row < 0 || num(t, r, use) < num(t, row, use) || (num(t, r, use) === num(t, row, use) && num(t, r, dur) > num(t, row, dur))) row = r;
  }
  if (row < 0) return null;
  const d = num(t, row, dur);
  return {
    kind: 'ppu_time_util',
    rule: 'ppu_time_util',
    row,
    params: { count: t.rowCount, total, inUse: num(t, row, use), duration: d, pid: text(t, row, findColumn(t, 'PID')), device: text(t, row, findColumn(t, 'Device ID')) },
    span: spanOf(t, row),
  };
}

/** pccl_desync_summary: each collective kernel above the desync threshold, worst first. */
export function desyncFindings(t: DecodedResult): Finding[] {
  const avg = findColumn(t, 'Desync Avg');
  const share = findColumn(t, 'Time');
  const name = findColumn(t, 'Kernel Name');
  const out: Finding[] = [];
  for (let r = 0; r < t.rowCount; r++) {
    const a = num(t, r, avg);
    const s = num(t, r, share);
    if (!(a > ADVICE_THRESHOLDS.desyncAvgPercent) || !(s >= ADVICE_THRESHOLDS.desyncMinTimePercent)) continue;
    out.push({
      kind: 'pccl_desync',
      rule: 'pccl_desync_summary',
      row: r,
      params: { avg: a, p90: num(t, r, findColumn(t, 'Desync P90')), share: s, count: num(t, r, findColumn(t, 'Count')), name: text(t, r, name) },
    });
  }
  return out.sort((x, y) => (y.params.avg as number) - (x.params.avg as number));
}

/** ppu_op_sum: the operator with the most time, when the device is idle for much of it. */
export function topOperatorFinding(t: DecodedResult): Finding | null {
  const row = argMax(t, findColumn(t, 'Total Time'));
  if (row < 0) return null;
  const active = num(t, row, findColumn(t, 'Active Percent'));
  if (!(active < ADVICE_THRESHOLDS.topOpActivePercent)) return null;
  return {
    kind: 'top_operator',
    rule: 'ppu_op_sum',
    row,
    params: {
      name: text(t, row, findColumn(t, 'OP Name')),
      type: text(t, row, findColumn(t, 'OP Type')),
      share: num(t, row, findColumn(t, 'Percent')),
      active,
      compute: num(t, row, findColumn(t, 'Compute Util')),
    },
  };
}

/** hggc_ppu_trace: memory copies to or from pageable host memory (the host waits for each; they cannot overlap). */
export function pageableFinding(t: DecodedResult): Finding | null {
  const src = findColumn(t, 'SrcMemKd');
  const dst = findColumn(t, 'DstMemKd');
  const dur = findColumn(t, 'Duration');
  if (src < 0 || dst < 0) return null;
  let count = 0;
  let total = 0;
  let row = -1;
  for (let r = 0; r < t.rowCount; r++) {
    if (text(t, r, src) !== 'Pageable' && text(t, r, dst) !== 'Pageable') continue;
    count++;
    total += num(t, r, dur) || 0;
    if (row < 0 || num(t, r, dur) > num(t, row, dur)) row = r;
  }
  if (row < 0) return null;
  const d = num(t, row, dur);
  return {
    kind: 'pageable_memcpy',
    rule: 'hggc_ppu_trace',
    row,
    params: { count, total, longest: d, name: text(t, row, findColumn(t, 'Name')) },
    span: spanOf(t, row),
  };
}

/** device_memory_usage_summary (unreleased-size): the row (process, device, call-stack group) with the most memory never freed; the total over all rows at the threshold. */
export function unreleasedFinding(t: DecodedResult): Finding | null {
  const bytes = findColumn(t, 'Memory Usage');
  let total = 0;
  let count = 0;
  for (let r = 0; r < t.rowCount; r++) {
    const b = num(t, r, bytes);
    if (b >= ADVICE_THRESHOLDS.unreleasedBytes) {
      total += b;
      count++;
    }
  }
  const row = argMax(t, bytes);
  if (row < 0 || !(num(t, row, bytes) >= ADVICE_THRESHOLDS.unreleasedBytes)) return null;
  return {
    kind: 'unreleased_memory',
    rule: 'device_memory_usage_summary',
    row,
    params: {
      bytes: num(t, row, bytes),
      total,
      count,
      pid: text(t, row, findColumn(t, 'PID')),
      device: text(t, row, findColumn(t, 'Device ID')),
      group: text(t, row, findColumn(t, 'Group List')),
    },
  };
}

/** Every finding of the results at hand, in the tab's order (device idle first, then waits, then memory). */
export function adviceFindings(results: AdviceInputs): Finding[] {
  const out: (Finding | null)[] = [];
  if (results.ppu_gaps) out.push(gapFinding(results.ppu_gaps));
  if (results.ppu_time_util) out.push(utilFinding(results.ppu_time_util));
  if (results.pccl_desync_summary) out.push(...desyncFindings(results.pccl_desync_summary));
  if (results.ppu_op_sum) out.push(topOperatorFinding(results.ppu_op_sum));
  if (results.hggc_ppu_trace) out.push(pageableFinding(results.hggc_ppu_trace));
  if (results.device_memory_usage_summary) out.push(unreleasedFinding(results.device_memory_usage_summary));
  return out.filter((f): f is Finding => f !== null);
}

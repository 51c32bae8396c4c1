// The independent side of the timeline specs' checks: plain SQL over a
// report with Debian's sqlite3, and interval unions worked out here.
import { execFileSync } from 'node:child_process';
import { DEMO_BASE } from './helpers';

/** Rows of an SQL query over a report (the demo's by default), fields split on '|'. */
export function sql(query: string, db = DEMO_BASE): string[][] {
  const out = execFileSync('sqlite3', ['-batch', '-noheader', '-separator', '|', db, query], { encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('|'));
}

/** The union length of intervals clipped to [from, to) (sorted and merged here). */
export function unionIn(spans: [bigint, bigint][], from: bigint, to: bigint): bigint {
  const clipped = spans
    .map(([s, e]): [bigint, bigint] => [s > from ? s : from, e < to ? e : to])
    .filter(([s, e]) => s < e)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let total = 0n;
  let open: [bigint, bigint] | null = null;
  for (const [s, e] of clipped) {
    if (open && s <= open[1]) {
      if (e > open[1]) open[1] = e;
      continue;
    }
    if (open) total += open[1] - open[0];
    open = [s, e];
  }
  return open ? total + open[1] - open[0] : total;
}

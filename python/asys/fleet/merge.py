"""The statistics of groups merged across reports, exactly as the engine
computes them for one report (core/analysis/stats.cc): integer nanoseconds
truncated toward zero, the population standard deviation floor(sqrt(n*Q -
T^2) / n) in integers, the median of an even count the truncated mean of
the two middle values."""

from math import isqrt

from .selection import Target, select


def _div(a, b):
    """a / b truncated toward zero, as C++ divides."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def merge_summaries(summaries):
    """Adds the per-report summaries: key -> [count, sum, min, max, sumsq]."""
    merged = {}
    for summary in summaries:
        for key, (n, total, lo, hi, sq) in summary.items():
            m = merged.get(key)
            if m is None:
                merged[key] = [n, total, lo, hi, sq]
            else:
                m[0] += n
                m[1] += total
                m[2] = min(m[2], lo)
                m[3] = max(m[3], hi)
                m[4] += sq
    return merged


def stddev(n, total, lo, hi, sq):
    """(value, exact): the engine's value where the engine computes it in
    integers (every |n x - T| below 2^64 and their squares' sum below 2^128,
    core/analysis/stats.cc); past that the engine itself falls back to long
    double, and so does this, from the exact moments."""
    if n < 2:
        return 0, True
    d = n * sq - total * total  # = sum((n x - T)^2) / n, exactly
    if max(n * hi - total, total - n * lo) < (1 << 64) and n * d < (1 << 128):
        return isqrt(d) // n, True
    return int((d / (n * n)) ** 0.5), False


def median_targets(merged):
    """The middle ranks of each merged group, named by the group's index in
    ``merged`` (the rounds' queries carry integers, not keys)."""
    targets = {}
    for index, (key, (n, _total, lo, hi, _sq)) in enumerate(merged.items()):
        ranks = [n // 2] if n % 2 else [n // 2 - 1, n // 2]
        targets[key] = [Target(index, r, lo, hi, n) for r in ranks]
        for t in targets[key]:
            if t.rank == 0:
                t.value = lo
            elif t.rank == n - 1:
                t.value = hi
    return targets


def merged_statistics(merged, ask):
    """Per key: [total, count, avg, med, min, max, stddev], the rounds the
    medians took, and the keys whose StdDev is the engine's long-double one."""
    targets = median_targets(merged)
    rounds = select([t for ts in targets.values() for t in ts], ask)
    stats, approximate = {}, []
    for key, (n, total, lo, hi, sq) in merged.items():
        ts = targets[key]
        med = ts[0].value if len(ts) == 1 else _div(ts[0].value + ts[1].value, 2)
        sd, exact = stddev(n, total, lo, hi, sq)
        if not exact:
            approximate.append(key)
        stats[key] = [total, n, _div(total, n), med, lo, hi, sd]
    return stats, rounds, approximate

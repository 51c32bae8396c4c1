"""The fleet's exact arithmetic without Dask: counting selection against a
sort of all the values, and the merged statistics against the engine's
formulas applied to the values themselves (core/analysis/stats.cc)."""

import random
from math import isqrt

import numpy as np
import pytest

from asys.fleet.merge import merge_summaries, merged_statistics, stddev
from asys.fleet.selection import FETCH_AT_MOST


def split_reports(values_by_key, reports, rng):
    """The values of each key dealt out to `reports` sorted parts."""
    parts = [{} for _ in range(reports)]
    for key, values in values_by_key.items():
        for v in values:
            parts[rng.randrange(reports)].setdefault(key, []).append(v)
    return [{k: np.sort(np.array(v, dtype=np.int64)) for k, v in p.items()} for p in parts]


def summaries_of(part):
    return {k: (len(v), int(sum(int(x) for x in v)), int(v[0]), int(v[-1]), sum(int(x) * int(x) for x in v))
            for k, v in part.items()}


def asker(parts, log):
    def ask(count_queries, fetch_queries):
        log.append(len(count_queries) + len(fetch_queries))
        counts = []
        for key, lo, width, n, hi in count_queries:
            total = np.zeros(n, dtype=np.int64)
            for p in parts:
                seg = p.get(key, np.zeros(0, dtype=np.int64))
                left = np.searchsorted(seg, np.array([lo + j * width for j in range(n)], dtype=np.int64))
                total += np.diff(np.append(left, np.searchsorted(seg, np.int64(hi), side="right")))
            counts.append(total)
        values = []
        for key, lo, hi in fetch_queries:
            found = [p[key][(p[key] >= lo) & (p[key] <= hi)] for p in parts if key in p]
            values.append(np.sort(np.concatenate(found)))
        return counts, values
    return ask


def engine_stats(values):
    """The engine's DurationStats of one group, from the values (stats.cc)."""
    v = sorted(values)
    n, t = len(v), sum(v)
    middle = v[n // 2 - 1] + v[n // 2]
    med = v[n // 2] if n % 2 else (middle // 2 if middle >= 0 else -(-middle // 2))  # C++ truncates
    s = sum((n * x - t) ** 2 for x in v)
    sd = 0 if n < 2 else isqrt(s // n) // n
    return [t, n, t // n, med, v[0], v[-1], sd]


@pytest.mark.parametrize("seed", range(6))
def test_merged_statistics_equal_one_report_of_all_values(seed):
    rng = random.Random(seed)
    values_by_key = {}
    for g in range(40):
        n = rng.choice([1, 2, 3, 7, 100, 1000, 5000])
        kind = g % 4
        if kind == 0:    # durations of a kernel: a few microseconds, a long tail
            values = [int(rng.lognormvariate(9, 1.5)) for _ in range(n)]
        elif kind == 1:  # many equal values
            values = [rng.choice([5, 5, 5, 6, 1 << 40]) for _ in range(n)]
        elif kind == 2:  # near 2^62: a 64-bit range, the most rounds
            values = [(1 << 62) + rng.randrange(-(1 << 61), 1 << 61) for _ in range(n)]
        else:            # a tight cluster at a huge mean
            values = [15_000_000_000 + rng.randrange(4) for _ in range(n)]
        values_by_key[("k%d" % g,)] = values
    parts = split_reports(values_by_key, rng.choice([1, 2, 16]), rng)
    merged = merge_summaries(summaries_of(p) for p in parts)
    log = []
    stats, rounds, approximate = merged_statistics(merged, asker(parts, log))
    # Only the 64-bit groups can leave the engine's integers.
    assert all(int(k[0][1:]) % 4 == 2 for k in approximate)
    for key, values in values_by_key.items():
        expected = engine_stats(values)
        got = stats[key]
        assert got[:6] == expected[:6], key
        if key not in approximate:
            assert got[6] == expected[6], key
    # 64-bit ranges in buckets of at least 2^6: at most 11 counting rounds and a fetch.
    assert 1 <= rounds <= 12


def test_fetch_takes_over_when_few_values_remain():
    parts = [{("a",): np.array(sorted([1, 10**12, 10**12 + 3] * 3), dtype=np.int64)}]
    merged = merge_summaries(summaries_of(p) for p in parts)
    stats, rounds, _ = merged_statistics(merged, asker(parts, []))
    assert stats[("a",)][3] == 10**12  # 9 values: the 5th
    assert rounds <= 2 and FETCH_AT_MOST >= 9


def test_stddev_says_where_the_engine_leaves_integers():
    # A huge spread in a large group: |n x - T| reaches 2^64.
    n, lo, hi = 1 << 20, 0, 1 << 50
    total = hi * (n // 2)
    sd, exact = stddev(n, total, lo, hi, (hi * hi) * (n // 2))
    assert not exact and sd == hi // 2
    sd, exact = stddev(3, 45000000004, 15000000000, 15000000003,
                       15000000000**2 + 15000000001**2 + 15000000003**2)
    assert exact and sd == 1  # tests/golden/cases/edge_osrt_sum.case

"""The fleet's exact arithmetic without Dask: counting selection against a
sort of all the values, and the merged statistics against the engine's
formulas applied to the values themselves (core/analysis/stats.cc)."""

import random
from math import isqrt

import numpy as np
import pytest

from asys.fleet.merge import merge_summaries, merged_statistics, stddev
from asys.fleet.selection import FETCH_AT_MOST, join_answers
from asys.fleet.state import ReportState


def split_reports(values_by_key, reports, rng):
    """The values of each key dealt out to `reports` states, as a worker
    holds them (ReportState without a report: keys, offsets, sorted values)."""
    parts = [{} for _ in range(reports)]
    for key, values in values_by_key.items():
        for v in values:
            parts[rng.randrange(reports)].setdefault(key, []).append(v)
    states = []
    for part in parts:
        state = ReportState.__new__(ReportState)
        keys = list(part)
        state.texts = [list(column) for column in zip(*keys)]
        runs = [np.sort(np.array(part[k], dtype=np.int64)) for k in keys]
        state.values = np.concatenate(runs) if runs else np.zeros(0, dtype=np.int64)
        state.offsets = np.concatenate([[0], np.cumsum([len(r) for r in runs])]).astype(np.int64)
        sumsq = [sum(int(x) * int(x) for x in r) for r in runs]
        state.sumsq_words = tuple(np.array([(q >> (64 * w)) & (2**64 - 1) for q in sumsq], dtype=np.uint64)
                                  for w in range(3))
        states.append(state)
    return states


def asker(states, merged, log):
    keys = list(merged)

    def ask(count_queries, fetch_queries):
        log.append(len(count_queries) + len(fetch_queries))
        return join_answers([s.answer(keys, count_queries, fetch_queries) for s in states], len(fetch_queries))
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
    merged = merge_summaries(p.summary() for p in parts)
    log = []
    stats, rounds, approximate = merged_statistics(merged, asker(parts, merged, log))
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
    values = [1] * 300 + [10**12] * 7 + [10**12 + 10**9] * 300  # 607 values: the 304th is 10^12
    parts = split_reports({("a",): values}, 3, random.Random(1))
    merged = merge_summaries(p.summary() for p in parts)
    log = []
    stats, rounds, _ = merged_statistics(merged, asker(parts, merged, log))
    assert stats[("a",)][3] == 10**12
    # Counting narrows to a bucket of 7 values, then they are fetched.
    assert rounds == len(log) == 2 and 7 <= FETCH_AT_MOST < 300


def test_small_groups_are_fetched_at_once():
    rng = random.Random(2)
    values_by_key = {("g%d" % g,): [rng.randrange(10**9) for _ in range(3 + g % 5)] for g in range(2000)}
    parts = split_reports(values_by_key, 4, rng)
    merged = merge_summaries(p.summary() for p in parts)
    log = []
    stats, rounds, _ = merged_statistics(merged, asker(parts, merged, log))
    assert rounds == 1
    for key, values in values_by_key.items():
        assert stats[key] == engine_stats(values), key


def test_stddev_says_where_the_engine_leaves_integers():
    # A huge spread in a large group: |n x - T| reaches 2^64.
    n, lo, hi = 1 << 20, 0, 1 << 50
    total = hi * (n // 2)
    sd, exact = stddev(n, total, lo, hi, (hi * hi) * (n // 2))
    assert not exact and sd == hi // 2
    sd, exact = stddev(3, 45000000004, 15000000000, 15000000003,
                       15000000000**2 + 15000000001**2 + 15000000003**2)
    assert exact and sd == 1  # tests/golden/cases/edge_osrt_sum.case

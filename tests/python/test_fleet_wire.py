"""A summary as it crosses to the client (asys/fleet/wire.py): compact on
the worker, expand on the client, the same arrays and types; and smaller."""

import pickle
import random

import numpy as np
import pytest

from asys.fleet import wire


def summary_of(runs, rng, text_columns=2, ids=1):
    """A summary as ReportState.summary makes it, from each group's values."""
    runs = [sorted(r) for r in runs]
    sq = [sum(x * x for x in r) for r in runs]
    n = len(runs)
    return {
        "texts": [np.array([rng.randrange(0, 5) if c == 0 else g + 2 for g in range(n)], dtype=np.uint32)
                  for c in range(text_columns)],
        "pool": (b"", np.zeros(1, dtype=np.int64)),
        "ids": [np.array([rng.choice([-1, 0, 7, 2**40]) for _ in range(n)], dtype=np.int64) for _ in range(ids)],
        "id_kinds": [0] * ids,
        "sums": [np.array([rng.randrange(-5, 2**33) for _ in range(n)], dtype=np.int64)],
        "count": np.array([len(r) for r in runs], dtype=np.int64),
        "total": np.array([sum(r) for r in runs], dtype=np.int64),
        "min": np.array([r[0] if r else 0 for r in runs], dtype=np.int64),
        "max": np.array([r[-1] if r else 0 for r in runs], dtype=np.int64),
        "sumsq": tuple(np.array([(q >> (64 * w)) & (2**64 - 1) for q in sq], dtype=np.uint64) for w in range(3)),
        "spans": False,
    }


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        x, y = a[key], b[key]
        if isinstance(x, (list, tuple)) and x and isinstance(x[0], np.ndarray):
            assert len(x) == len(y)
            for u, v in zip(x, y):
                assert u.dtype == v.dtype and u.tolist() == v.tolist(), key
        elif isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.tolist() == y.tolist(), key
        else:
            assert x == y or (isinstance(x, tuple) and all(np.array_equal(u, v) for u, v in zip(x, y))), key


@pytest.mark.parametrize("seed", range(5))
def test_expand_of_compact_is_the_summary(seed):
    rng = random.Random(seed)
    extremes = [-2**63, 2**63 - 1, -1, 0, 1, 2**32 - 1, 2**32, -2**32, 2**62 + 12345]
    runs = []
    for _ in range(300):
        n = rng.choice([0, 1, 1, 1, 2, 2, 3, 5, 40])
        if rng.random() < 0.2:  # values near the ends of int64 (totals inside it)
            r = [rng.choice(extremes)] if n else []
            r += [rng.randrange(0, 100) for _ in range(max(0, min(n, 2) - 1))]
        else:
            r = [int(rng.lognormvariate(10, 3)) for _ in range(n)]
        if -2**63 <= sum(r) < 2**63:
            runs.append(r)
    s = summary_of(runs, rng)
    e = wire.expand(pickle.loads(pickle.dumps(wire.compact(s))))
    assert_same(s, e)


def test_a_summary_without_groups_or_data():
    rng = random.Random(1)
    s = summary_of([], rng, text_columns=0, ids=0)
    assert_same(s, wire.expand(wire.compact(s)))
    assert wire.expand(wire.compact({})) == {}


def test_compact_is_smaller_for_groups_of_one_or_two_values():
    rng = random.Random(2)
    runs = [[rng.randrange(1000, 10**7) for _ in range(rng.choice([1, 1, 2, 3]))] for _ in range(5000)]
    s = summary_of(runs, rng)
    assert len(pickle.dumps(wire.compact(s))) < 0.6 * len(pickle.dumps(s))


def test_a_large_reply_is_packed_with_lzma_and_comes_back_whole():
    from asys.fleet import tasks
    rng = random.Random(3)
    names = b"".join(b"aten::mm, op_id = %d, sizes = [[%d, %d]]" % (i, rng.randrange(10**9), rng.randrange(10**9))
                     for i in range(100000))
    small = {"pool": (b"x" * 100, np.zeros(2, np.int64))}
    big = {"pool": (names, np.arange(5, dtype=np.int64))}
    assert tasks.pack(small)[:1] in (b"L", b"Z")
    packed = tasks.pack(big)
    assert packed[:1] == b"X"  # past LARGE_REPLY with LZ4: LZMA instead
    back = tasks.unpack(packed)
    assert back["pool"][0] == names and back["pool"][1].tolist() == list(range(5))


def test_hgtx_sum_groups_carry_each_name_once(demo_pair):
    """_asys.grouped_durations of hgtx_sum: the texts as a pool of distinct
    texts and ids into it, and the (style, name) pairs the rule's table shows."""
    from asys import _asys
    from asys.fleet.merge import text_list
    from asys.report import Report
    from conftest import run_cli
    with Report(demo_pair[0]) as report:
        g = _asys.grouped_durations(report._engine, "hgtx_sum", [], "", "", [])
    blob, offsets = g["pool"]
    pool = text_list(blob, offsets, range(len(offsets) - 1))
    assert len(set(pool)) == len(pool)
    style, name = ([pool[i] for i in column.tolist()] for column in g["texts"])
    assert set(style) <= {"PushPop", "StartEnd"}
    import csv, io
    rows = list(csv.DictReader(io.StringIO(run_cli("stats", "-r", "hgtx_sum", "--format", "csv", demo_pair[0]).stdout.decode())))
    assert sorted(zip(style, name)) == sorted((r["Style"], r["Range"]) for r in rows)


def test_sparse_counts_carry_the_buckets_that_hold_a_value():
    """A round's bucket counts as a worker sends them: the non-zero ones,
    each its position and count, in the narrowest types; back as the same
    column (counts of a few values in 4096 buckets, none, all, and one past
    65535)."""
    counts = np.zeros(4096, dtype=np.int64)
    counts[[0, 17, 4095]] = [3, 1, 70000]
    size, at, n = wire.sparse_counts(counts)
    assert size == 4096
    assert wire.widen(at).tolist() == [0, 17, 4095] and wire.widen(n).tolist() == [3, 1, 70000]
    assert at[1].dtype == np.int16 and n[1].dtype == np.int32
    assert wire.dense_counts((size, at, n)).tolist() == counts.tolist()
    for column in (np.zeros(5, np.int64), np.arange(1, 6, dtype=np.int64), np.zeros(0, np.int64)):
        back = wire.dense_counts(wire.sparse_counts(column))
        assert back.dtype == np.int64 and back.tolist() == column.tolist()
    assert len(pickle.dumps(wire.sparse_counts(counts))) < 400 < counts.nbytes


def test_a_small_summary_crosses_as_it_is_a_large_one_compacted():
    rng = random.Random(3)
    small = summary_of([[rng.randrange(1, 10**6) for _ in range(3)] for _ in range(wire.COMPACT_FROM - 1)], rng)
    assert wire.to_send(small) is small
    assert_same(small, wire.expand(pickle.loads(pickle.dumps(wire.to_send(small)))))
    large = summary_of([[rng.randrange(1, 10**6) for _ in range(3)] for _ in range(wire.COMPACT_FROM)], rng)
    sent = wire.to_send(large)
    assert sent.get("compact") == 1
    assert_same(large, wire.expand(pickle.loads(pickle.dumps(sent))))
    assert wire.to_send({}) == {}

"""The fleet's exact arithmetic without Dask: counting selection against a
sort of all the values, and the merged statistics against the engine's
formulas applied to the values themselves (core/analysis/stats.cc)."""

import pickle
import random
from math import isqrt

import numpy as np
import pytest

from asys.fleet import tasks
from asys.fleet.merge import Merged, asker, merged_statistics
from asys.fleet.selection import EXACT_BUCKETS, FETCH_AT_MOST, FETCH_WIDE_AT_MOST, _buckets_each
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
        keys = list(part)
        rng.shuffle(keys)  # each report numbers its groups its own way
        states.append(state_of([], [list(column) for column in zip(*keys)] if keys else [[]], [],
                               [part[k] for k in keys]))
    return states


def state_of(ids, texts, sums, runs, spill_dir=None):
    """A ReportState of groups given here: id and text key columns, sum
    columns and each group's values (as _asys.grouped_durations gives them)."""
    runs = [np.sort(np.array(r, dtype=np.int64)) for r in runs]
    sq = [sum(int(x) * int(x) for x in r) for r in runs]
    groups = {
        "texts": texts, "ids": [np.array(c, dtype=np.int64) for c in ids], "id_kinds": [0] * len(ids),
        "sums": [np.array(c, dtype=np.int64) for c in sums],
        "offsets": np.concatenate([[0], np.cumsum([len(r) for r in runs])]).astype(np.int64),
        "values": np.concatenate(runs + [np.zeros(0, np.int64)]),
        "sumsq": tuple(np.array([(q >> (64 * w)) & (2**64 - 1) for q in sq], dtype=np.uint64) for w in range(3)),
        "warnings": [],
    }
    return ReportState.of_groups("test", "part", groups, spill_dir)


class Holding:
    """What tasks.answers reads of a loaded report: its states by rule."""

    def __init__(self, state):
        self.states = {"test": state}


def merged_of(parts, log, buckets=True, as_sent=False):
    """``as_sent``: each report's answers as a worker sends them
    (tasks.answers: pickled, the bucket counts as wire.sparse_counts), not
    ReportState.answer's columns."""
    summaries = [p.summary() for p in parts]
    if not buckets:  # as if no report had counted its values in the fixed buckets
        summaries = [dict(s, hist=None) for s in summaries]
    merged = Merged(summaries)

    def answer_all(requests):
        log.append(sum(len(q[0][0]) + len(q[1][0]) for _r, q in requests))
        if as_sent:
            return [pickle.loads(tasks.answers(Holding(parts[r]), [("test", q)])[0]) for r, q in requests]
        return [parts[r].answer(*q) for r, q in requests]
    stats, rounds, approximate = merged_statistics(merged, asker(merged, answer_all))
    keys = [(t,) for t in merged.key_texts[0]]
    by_key = {k: [int(c[g]) for c in stats] for g, k in enumerate(keys)}
    return by_key, rounds, [keys[g] for g in approximate]


def engine_stats(values):
    """The engine's DurationStats of one group, from the values (stats.cc)."""
    v = sorted(values)
    n, t = len(v), sum(v)
    middle = v[n // 2 - 1] + v[n // 2]
    med = v[n // 2] if n % 2 else (middle // 2 if middle >= 0 else -(-middle // 2))  # C++ truncates
    s = sum((n * x - t) ** 2 for x in v)
    sd = 0 if n < 2 else isqrt(s // n) // n
    return [t, n, t // n, med, v[0], v[-1], sd]


@pytest.mark.parametrize("as_sent", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_merged_statistics_equal_one_report_of_all_values(seed, as_sent):
    rng = random.Random(seed)
    values_by_key = {}
    for g in range(40):
        n = rng.choice([1, 2, 3, 7, 100, 1000, 5000])
        kind = g % 4
        if kind == 0:    # durations of a kernel: a few microseconds, a long tail
            values = [int(rng.lognormvariate(9, 1.5)) for _ in range(n)]
        elif kind == 1:  # many equal values
            values = [rng.choice([5, 5, 5, 6, 1 << 40]) for _ in range(n)]
        elif kind == 2:  # as wide a range as a total in 64 bits allows: the most rounds
            values = [rng.randrange((1 << 63) // n) for _ in range(n)]
        else:            # a tight cluster at a huge mean
            values = [15_000_000_000 + rng.randrange(4) for _ in range(n)]
        values_by_key[("k%d" % g,)] = values
    parts = split_reports(values_by_key, rng.choice([1, 2, 16]), rng)
    stats, rounds, approximate = merged_of(parts, [], as_sent=as_sent)
    # Only the 64-bit groups can leave the engine's integers.
    assert all(int(k[0][1:]) % 4 == 2 for k in approximate)
    for key, values in values_by_key.items():
        expected = engine_stats(values)
        got = stats[key]
        assert got[:6] == expected[:6], key
        if key not in approximate:
            assert got[6] == expected[6], key
    # 63-bit ranges in buckets of at least 2^6: at most 11 counting rounds and a fetch.
    assert 1 <= rounds <= 12


def test_fetch_takes_over_when_few_values_remain():
    many = FETCH_WIDE_AT_MOST + 600
    values = [1] * many + [10**12] * 7 + [10**12 + 10**9] * many  # the middle one is 10^12
    parts = split_reports({("a",): values}, 3, random.Random(1))
    log = []
    stats, rounds, _ = merged_of(parts, log)
    assert stats[("a",)][3] == 10**12
    # The fixed bucket of 10^12 holds too many values to fetch and is a
    # billion values wide: counting narrows it to a bucket of 7 values,
    # then they are fetched.
    assert rounds == len(log) == 2 and 7 <= FETCH_AT_MOST < 300


def test_a_wide_range_of_few_values_is_fetched_at_once():
    values = [1] * 300 + [10**12] * 7 + [10**12 + 10**9] * 300  # 607 values: the 304th is 10^12
    parts = split_reports({("a",): values}, 3, random.Random(1))
    log = []
    stats, rounds, _ = merged_of(parts, log)
    assert stats[("a",)][3] == 10**12
    # The fixed bucket of 10^12 (a billion values wide) holds 307 values:
    # fetched in the first round, not counted first.
    assert rounds == len(log) == 1 and FETCH_AT_MOST < 307 <= FETCH_WIDE_AT_MOST


@pytest.mark.parametrize("as_sent", [False, True])
def test_a_narrow_range_of_many_values_is_settled_in_one_round(as_sent):
    # Kernel durations: 40 groups of 20 k values each, every group's fixed
    # bucket of its middle ranks 128 to 4096 values wide and holding
    # thousands: counted one value a bucket, settled in the first round.
    rng = random.Random(5)
    values_by_key = {("k%d" % g,): [rng.randrange(5000 << (g % 6), 7000 << (g % 6)) for _ in range(20000)]
                     for g in range(40)}
    parts = split_reports(values_by_key, 4, rng)
    log = []
    stats, rounds, _ = merged_of(parts, log, as_sent=as_sent)
    assert rounds == len(log) == 1
    for key, values in values_by_key.items():
        assert stats[key] == engine_stats(values), key


@pytest.mark.parametrize("seed", range(20))
def test_buckets_each_fill_the_narrowest_first_within_the_budget(seed):
    rng = random.Random(seed)
    n = rng.randrange(1, 60)
    lo = np.array([rng.randrange(-10**6, 10**6) for _ in range(n)], dtype=np.int64)
    width = [rng.choice([1, 2, 64, 128, 2048, EXACT_BUCKETS, 10**6, 2**62]) for _ in range(n)]
    hi = lo + np.array(width, dtype=np.int64) - 1
    budget = rng.choice([64, 4096, 20000, 1 << 17])
    got = _buckets_each(lo, hi, budget).tolist()
    want = [min(w, EXACT_BUCKETS) for w in width]
    if sum(want) <= budget:
        assert got == want
        return
    # The largest c with sum(min(want, c)) <= budget, found by counting up;
    # at least 4 each (the floor may pass the budget).
    c = max(x for x in range(0, max(want) + 1) if sum(min(w, x) for w in want) <= budget)
    assert got == [max(4, min(w, c)) for w in want]


def test_small_groups_are_fetched_at_once():
    rng = random.Random(2)
    values_by_key = {("g%d" % g,): [rng.randrange(10**9) for _ in range(3 + g % 5)] for g in range(2000)}
    parts = split_reports(values_by_key, 4, rng)
    stats, rounds, _ = merged_of(parts, [])
    assert rounds == 1
    for key, values in values_by_key.items():
        assert stats[key] == engine_stats(values), key


def stddev(n, total, lo, hi, sq):
    """The fleet's StdDev of one group from its moments (_asys.merged_stddev)."""
    from asys import _asys
    limbs = [np.array([(sq >> (32 * l)) & 0xFFFFFFFF], dtype=np.int64) for l in range(6)]
    col = lambda v: np.array([v], dtype=np.int64)  # noqa: E731
    sd, approx = _asys.merged_stddev(col(n), col(total), col(lo), col(hi), limbs)
    return int(sd[0]), not bool(approx[0])


def test_stddev_says_where_the_engine_leaves_integers():
    # A huge spread in a large group: one value 2^62 among 2^20 - 1 zeros,
    # |n x - T| reaches 2^64; the engine's long double is within 1 of the
    # exact floor.
    n, hi = 1 << 20, 1 << 62
    sd, exact = stddev(n, hi, 0, hi, hi * hi)
    assert not exact and abs(sd - isqrt(n * hi * hi - hi * hi) // n) <= 1
    sd, exact = stddev(3, 45000000004, 15000000000, 15000000003,
                       15000000000**2 + 15000000001**2 + 15000000003**2)
    assert exact and sd == 1  # tests/golden/cases/edge_osrt_sum.case


def test_groups_with_equal_keys_across_reports_merge_and_ids_stay_apart(tmp_path):
    """Id keys and sums: groups merge by (id, text), sums add, an empty
    group (sums only) has zero statistics; a state whose values went to a
    file answers the same."""
    spill = str(tmp_path)
    a = state_of([[1, 2, 1]], [["x", "x", "y"]], [[10, 20, 30]], [[5, 7], [], [1]])
    b = state_of([[1, 3]], [["x", "y"]], [[1, 2]], [[6], [9, 9, 9]], spill_dir=spill)
    merged = Merged([a.summary(), b.summary()])
    stats, _rounds, _ = merged_statistics(merged, asker(merged, lambda req: [[a, b][r].answer(*q) for r, q in req]))
    rows = sorted(zip(merged.key_ids[0].tolist(), merged.key_texts[0], merged.sums[0].tolist(),
                      *[c.tolist() for c in stats]))
    assert rows == [
        # id, text, sum, total, count, avg, med, min, max, stddev
        (1, "x", 11, 18, 3, 6, 6, 5, 7, 0),
        (1, "y", 30, 1, 1, 1, 1, 1, 1, 0),
        (2, "x", 20, 0, 0, 0, 0, 0, 0, 0),
        (3, "y", 2, 27, 3, 9, 9, 9, 9, 0),
    ]
    assert len(list(tmp_path.iterdir())) == 1
    # Moved to another worker (pickled), a spilled state takes its values along.
    import pickle
    moved = pickle.loads(pickle.dumps(b))
    query = ((np.array([1]), np.array([9]), np.array([1]), np.array([1]), np.array([9])),
             (np.array([0]), np.array([0]), np.array([10])))
    assert [x.tolist() for x in moved.answer(*query)] == [x.tolist() for x in b.answer(*query)] == [[3], [6], [1]]
    del b, merged, moved
    import gc
    gc.collect()
    assert list(tmp_path.iterdir()) == []  # the spill file goes with its state


class CountingClient:
    """A Dask client's map, gather and who_has, run here, counting the
    gathers and tasks; ``held``: future key -> the worker holding it."""

    def __init__(self, held=None):
        self.gathers = self.tasks = 0
        self.held = held or {}

    def who_has(self, futures):
        return {f.key: [self.held[f.key]] if f.key in self.held else [] for f in futures}

    def map(self, fn, *columns, **_keywords):
        self.tasks += len(columns[0])
        return [fn(*args) for args in zip(*columns)]

    def gather(self, results):
        self.gathers += 1
        return results


def test_every_rules_rounds_go_out_together():
    """Two rules whose medians take different numbers of rounds alone: run
    together, a round is one gather and one task a worker for both (its
    reports' answers together), the
    rounds are the longer rule's, and each rule's statistics are still its
    own values' (worked out here from the values)."""
    from types import SimpleNamespace

    from asys.fleet.merge import Merged
    from asys.fleet.run import FleetResult, Selection, _rounds_together

    rng = random.Random(5)
    # Counting rounds: more values than are fetched at once in one fixed
    # bucket of the reports' own counts (selection.bucket_keys: 2^40 + up
    # to 2^30 is one bucket, 2^30 values wide).
    wide = {("w%d" % g,): [(1 << 40) + rng.randrange(1 << 30) for _ in range(FETCH_WIDE_AT_MOST + 1000)]
            for g in range(2)}
    small = {("s%d" % g,): [rng.randrange(10**6) for _ in range(5)] for g in range(50)}  # one fetch round
    by_rule = {"wide": wide, "small": small}
    states = {rule: split_reports(values, 3, random.Random(7)) for rule, values in by_rule.items()}
    alone = {}
    for rule in by_rule:
        _stats, alone[rule], _ = merged_of(states[rule], [])
    assert alone["wide"] > alone["small"] == 1
    reports = [SimpleNamespace(key="load-%d" % r, states={rule: states[rule][r] for rule in by_rule}) for r in range(3)]
    selections = {rule: Selection(Merged([s.summary() for s in states[rule]]), [0, 1, 2]) for rule in by_rule}
    # Reports 0 and 2 on one worker, 1 on another.
    client = CountingClient({"load-0": "tcp://a", "load-1": "tcp://b", "load-2": "tcp://a"})
    rounds, tasks = _rounds_together(client, reports, selections, FleetResult())
    assert rounds == client.gathers == alone["wide"]
    assert tasks == client.tasks == 2 * alone["wide"]
    for rule, values_by_key in by_rule.items():
        stats, rule_rounds, _ = selections[rule].outcome
        assert rule_rounds == alone[rule]
        keys = selections[rule].merged.key_texts[0]
        for g, key in enumerate(keys):
            assert [int(c[g]) for c in stats][:6] == engine_stats(values_by_key[(key,)])[:6], (rule, key)


@pytest.mark.parametrize("queries_a_group", [1, 3, 40])
def test_search_and_bisection_find_the_same_place(queries_a_group):
    """A round's two ways of finding where a value falls in its group's
    sorted values (a searchsorted a group, the vectorized bisection), on
    either side, against the places counted here: equal values, values
    past both ends, empty groups."""
    rng = random.Random(queries_a_group)
    runs = [[rng.choice([3, 3, 7, 10**12, rng.randrange(10**6)]) for _ in range(rng.choice([0, 1, 5, 300]))]
            for _ in range(30)]
    state = state_of([], [["g%d" % g for g in range(len(runs))]], [], runs)
    v, offsets = state.values(), state.offsets
    group = np.array([g for g in range(len(runs)) for _ in range(queries_a_group)] * 2, dtype=np.int64)
    rng.shuffle(group)
    x = np.array([rng.choice([-1, 3, 7, 8, 10**12, 10**13, rng.randrange(10**6)]) for _ in group], dtype=np.int64)
    for right in (False, True):
        expected = [int(offsets[g]) + sum(1 for value in v[offsets[g]:offsets[g + 1]] if (value <= q if right else value < q))
                    for g, q in zip(group.tolist(), x.tolist())]
        assert state._search(v, group, x, right).tolist() == expected
        assert state._bisect(v, group, x, right).tolist() == expected


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_answers_in_cpp_equal_the_numpy_answers(seed):
    """ReportState.answer (_asys.answer_counts and answer_fetch) against its
    NumPy version: count queries of one to 4096 buckets, widths up to the
    whole int64 range (edges in unsigned arithmetic), values at both ends
    of int64 and negative, equal values, empty groups, queries past the
    values and fetches of none."""
    from asys import _asys
    rng = random.Random(seed)
    big = 2**63 - 1
    pick = [-2**50, -5, 0, 3, 3, 7, 10**12, 2**50, None]  # a group's total within int64
    runs = [[(rng.randrange(-10**6, 10**6) if p is None else p) for p in
             (rng.choice(pick) for _ in range(rng.choice([0, 1, 2, 5, 300, 3000])))] for _ in range(40)]
    state = state_of([], [["g%d" % g for g in range(len(runs))]], [], runs)
    v = state.values()
    count, fetch = [], []
    for _ in range(200):
        g = rng.randrange(len(runs))
        lo = rng.choice([-big - 1, -10**6, -5, 0, 3, rng.randrange(-10**6, 10**6)])
        nb = rng.choice([1, 2, 17, 4096])
        room = big - lo  # hi = lo + width * nb - 1 must stay within int64
        width = max(1, min(rng.choice([1, 3, 1000, 2**40, 2**62]), room // nb))
        hi = lo + width * (nb - 1) + rng.choice([width - 1, rng.randrange(width)])  # the last bucket may be short
        count.append((g, lo, width, nb, hi))
        flo = rng.choice([-big - 1, -5, 0, 3, 7, rng.randrange(-10**6, 10**6)])
        fetch.append((g, flo, rng.choice([flo, flo + 4, big, min(big, flo + 10**5)])))
    cq = tuple(np.array(c, dtype=np.int64) for c in zip(*count))
    fq = tuple(np.array(c, dtype=np.int64) for c in zip(*fetch))
    got = state.answer(cq, fq)
    want = state._answer_numpy(v, cq, fq)
    assert [x.tolist() for x in got] == [x.tolist() for x in want]
    assert hasattr(_asys, "answer_counts")
    # As they cross (_asys.answer_counts_sparse, the values walked): the
    # buckets that hold a value, positions and counts, as sparse_counts
    # makes them of the NumPy answer's counts, in the same narrowed types.
    from asys.fleet import wire
    (size, at, n), values, lengths = state.answer(cq, fq, sparse=True)
    (want_size, want_at, want_n) = wire.sparse_counts(want[0])
    assert size == want_size == len(want[0])
    assert (at[0], at[1].dtype, at[1].tolist()) == (want_at[0], want_at[1].dtype, want_at[1].tolist())
    assert (n[0], n[1].dtype, n[1].tolist()) == (want_n[0], want_n[1].dtype, want_n[1].tolist())
    assert wire.dense_counts((size, at, n)).tolist() == want[0].tolist()
    assert [values.tolist(), lengths.tolist()] == [want[1].tolist(), want[2].tolist()]
    assert hasattr(_asys, "answer_counts_sparse")
    empty = tuple(np.zeros(0, np.int64) for _ in range(5)), tuple(np.zeros(0, np.int64) for _ in range(3))
    assert [x.tolist() for x in state.answer(*empty)] == [[], [], []]
    (size, at, n), values, lengths = state.answer(*empty, sparse=True)
    assert (size, at[1].tolist(), n[1].tolist(), values.tolist(), lengths.tolist()) == (0, [], [], [], [])


def test_merge_key_order_and_first_appearance_equal_numpys():
    """Merged's key order (keys packed into one int64 where their ranges
    fit, one stable argsort) is np.lexsort's; _asys.first_appearance is
    np.unique's first indices ranked; keys at the ends of int64 fall back."""
    from asys import _asys
    from asys.fleet.merge import _key_order
    rng = np.random.default_rng(3)
    for trial in range(30):
        n = int(rng.integers(0, 3000))
        keys = [rng.integers(-3, 4, n), rng.integers(0, 50, n) * 10**9, rng.integers(0, 7, n)][:1 + trial % 3]
        assert _key_order(keys).tolist() == np.lexsort(keys[::-1]).tolist()
        c = rng.integers(0, 300, n)
        if n:
            distinct, first, inverse = np.unique(c, return_index=True, return_inverse=True)
            rank = np.empty(len(distinct), dtype=np.int64)
            rank[np.argsort(first, kind="stable")] = np.arange(len(distinct))
            assert _asys.first_appearance(c).tolist() == rank[inverse].tolist()
    wide = [np.array([-2**62, 2**62, 0, 0]), np.array([1, 2, 3, -1])]
    assert _key_order(wide).tolist() == np.lexsort(wide[::-1]).tolist()


def test_texts_factorized_as_a_dictionary_numbers_them():
    """_asys.factorize_texts against a dict: equal bytes, equal codes, in
    order of first appearance; empty texts and bytes that are not UTF-8
    (surrogateescape) included, and the distinct texts given back."""
    from asys import _asys
    from asys.fleet.merge import text_list
    from asys.fleet.state import text_column
    rng = random.Random(7)
    words = ["", "a", "ab", "b\udcff", "näme", "a,b", "x" * 300]
    reports = [[rng.choice(words) for _ in range(rng.randrange(0, 40))] for _ in range(5)]
    codes, blob, offsets = _asys.factorize_texts([text_column(r) for r in reports])
    seen = {}
    expected = [seen.setdefault(t, len(seen)) for r in reports for t in r]
    assert codes.tolist() == expected
    assert text_list(blob, offsets, range(len(seen))) == list(seen)
    with pytest.raises(ValueError, match="offsets"):
        _asys.factorize_texts([(b"abc", np.array([0, 2], dtype=np.int64))])


def test_many_texts_factorized_on_every_core_as_a_dictionary_numbers_them():
    """Past 65 536 texts factorize_texts hashes and splits them over
    threads (a part a thread, each with its own table): still one code a
    distinct text, numbered in order of first appearance over all parts,
    whichever part a text fell in; texts that repeat within a report and
    across reports, and an empty report."""
    from asys import _asys
    from asys.fleet.merge import text_list
    from asys.fleet.state import text_column
    rng = random.Random(11)
    pool = ["name %d" % i for i in range(60000)] + ["", "x" * 500, "r\udce9"]
    reports = [[rng.choice(pool) for _ in range(rng.randrange(10000, 30000))] for _ in range(8)] + [[]]
    codes, blob, offsets = _asys.factorize_texts([text_column(r) for r in reports])
    seen = {}
    expected = [seen.setdefault(t, len(seen)) for r in reports for t in r]
    assert sum(len(r) for r in reports) > 65536
    assert codes.tolist() == expected
    assert text_list(blob, offsets, range(len(seen))) == list(seen)


def test_merged_texts_keep_bytes_that_are_not_utf8():
    parts = [state_of([], [["r\udce9", "s"]], [], [[5, 7], [1]]), state_of([], [["s", "r\udce9"]], [], [[3], [9]])]
    by_key, _rounds, _approx = merged_of(parts, [])
    assert by_key[("r\udce9",)][:2] == [21, 3] and by_key[("s",)][:2] == [4, 2]


def test_a_report_total_past_int64_is_refused_and_one_just_inside_is_not():
    from asys.report import AsysError
    big = 2**62
    ok = state_of([], [["a", "b"]], [], [[big, big // 2 - 2**12], [1, 2, 3]])  # 1.5 * 2^62: inside
    assert ok.summary()["total"].tolist() == [big + big // 2 - 2**12, 6]
    with pytest.raises(AsysError, match="leaves 64-bit integers"):
        state_of([], [["a"]], [], [[big, big]])  # 2^63


def test_fixed_buckets_hold_their_values_in_order():
    """selection.bucket_keys: keys rise with the values, and each value
    lies in its key's [lo, hi] (bucket_bounds), at the edges of int64, of
    the powers of two and of the exact buckets below 2^BUCKET_BITS; each
    bucket no wider than 2^-(BUCKET_BITS-1) of its values."""
    from asys.fleet.selection import BUCKET_BITS, bucket_bounds, bucket_keys

    rng = random.Random(3)
    edges = [0, 1, 2, 63, 64, 65, 127, 128, 2**62, 2**63 - 1, -1, -2, -(2**63), 15_000_000_000]
    edges += [(1 << b) + d for b in range(1, 63) for d in (-1, 0, 1)]
    edges += [rng.randrange(-(2**63), 2**63) for _ in range(2000)]
    edges += [rng.randrange(1 << rng.randrange(1, 63)) for _ in range(2000)]
    values = np.array(sorted(set(edges)), dtype=np.int64)
    keys = bucket_keys(values)
    assert np.all(np.diff(keys) >= 0)
    lo, hi = bucket_bounds(keys)
    assert np.all((lo <= values) & (values <= hi))
    pos = values >= 0
    assert np.all(hi[pos] - lo[pos] <= np.maximum(values[pos] >> (BUCKET_BITS - 1), 0))
    assert np.all(keys[values < 0] == -1) and np.all(keys[pos] >= 0)
    exact = (values >= 0) & (values < (1 << BUCKET_BITS))
    assert np.all(lo[exact] == hi[exact])


@pytest.mark.parametrize("seed", range(4))
def test_the_load_s_buckets_save_a_round_and_change_no_statistic(seed):
    """The medians' first counting round made from the reports' fixed-bucket
    counts (sent with their summaries): the same statistics as counting
    every round, and a round fewer where the groups are large."""
    rng = random.Random(seed)
    values_by_key = {}
    for g in range(24):
        n = rng.choice([1, 2, 3, 300, 3000])
        kind = g % 3
        if kind == 0:
            values = [int(rng.lognormvariate(12, 2)) for _ in range(n)]
        elif kind == 1:
            values = [rng.choice([0, 5, 5, 1 << 40, -(1 << 50), -3]) for _ in range(n)]
        else:
            values = [rng.randrange(-(1 << 62) // n, (1 << 62) // n) for _ in range(n)]
        values_by_key[("k%d" % g,)] = values
    parts = split_reports(values_by_key, rng.choice([1, 3, 16]), rng)
    with_buckets, rounds, _ = merged_of(parts, [])
    counted, rounds_counted, _ = merged_of(parts, [], buckets=False)
    assert with_buckets == counted
    for key, values in values_by_key.items():
        got, expected = with_buckets[key], engine_stats(values)
        # (engine_stats' mean floors where the engine truncates: negative totals)
        assert got[:2] + got[3:6] == expected[:2] + expected[3:6], key
    assert rounds <= rounds_counted


def test_a_kernel_s_durations_take_a_round_fewer():
    """Durations of a kernel (many values, a long tail) in 16 reports: with
    the load's bucket counts the median's bucket is fetched at once, where
    counting from the group's [min, max] took a counting round first."""
    rng = random.Random(11)
    values_by_key = {("k%d" % g,): [int(rng.lognormvariate(10 + g, 1)) for _ in range(20000)] for g in range(4)}
    parts = split_reports(values_by_key, 16, rng)
    with_buckets, rounds, _ = merged_of(parts, [])
    counted, rounds_counted, _ = merged_of(parts, [], buckets=False)
    assert with_buckets == counted
    assert (rounds, rounds_counted) == (1, 2)


@pytest.mark.parametrize("seed", range(40))
def test_a_report_s_bucket_counts_equal_a_key_a_value(seed):
    """selection.histogram (each bucket's first value found by bisection,
    or a key a value for groups of few values over many buckets) against
    every value's key counted: equal values, negative values, int64's
    ends, empty groups and groups below `least`."""
    from asys.fleet.selection import bucket_keys, histogram

    rng = np.random.default_rng(seed)
    runs = []
    for _ in range(int(rng.integers(0, 30))):
        n = int(rng.choice([0, 1, 2, 3, 4, 10, 50, 3000]))
        kind = int(rng.integers(0, 4))
        if kind == 0:
            r = rng.integers(0, 1 << int(rng.integers(1, 62)), size=n)
        elif kind == 1:
            r = rng.integers(-(1 << 62), 1 << 62, size=n)
        elif kind == 2:
            r = rng.choice(np.array([0, 5, 63, 64, 2**40, -1, -2**63, 2**63 - 1], dtype=np.int64), size=n)
        else:
            r = np.exp(rng.normal(10, 2, size=n)).astype(np.int64)
        runs.append(np.sort(r.astype(np.int64)))
    offsets = np.concatenate([[0], np.cumsum([len(r) for r in runs])]).astype(np.int64)
    values = np.concatenate(runs + [np.zeros(0, np.int64)])
    expected = {}
    for g, r in enumerate(runs):
        if len(r) >= 3:
            for k in bucket_keys(r).tolist():
                expected[g, k] = expected.get((g, k), 0) + 1
    group, key, count = histogram(values, offsets)
    assert list(zip(group.tolist(), key.tolist())) == sorted(expected)
    assert count.tolist() == [expected[k] for k in sorted(expected)]


def test_groups_of_at_most_two_values_a_report_are_settled_without_asking():
    # Each group's values dealt out at most two a report (as a range name
    # of a few instances on each rank): the reports' min and max are all
    # its values, so no report is asked anything.
    rng = random.Random(7)
    reports = 40
    values_by_key = {("g%d" % g,): [rng.randrange(-10**6, 10**12) for _ in range(rng.choice([3, 4, 7, 30, 80]))]
                     for g in range(300)}
    parts = [{} for _ in range(reports)]
    for key, values in values_by_key.items():
        slots = rng.sample(range(reports), (len(values) + 1) // 2)
        for i, v in enumerate(values):
            parts[slots[i // 2]].setdefault(key, []).append(v)
    states = []
    for part in parts:
        keys = list(part)
        states.append(state_of([], [[k[0] for k in keys]], [], [part[k] for k in keys]))
    log = []
    stats, rounds, _ = merged_of(states, log)
    assert rounds == 0 and log == []
    for key, values in values_by_key.items():
        assert stats[key] == engine_stats(values), key
    # One report with three values of a group: that group is asked, the others not.
    three = next(i for i, p in enumerate(parts) if p)
    key = next(iter(parts[three]))
    parts[three][key] += [values_by_key[key][0] + 1]
    values_by_key[key] = values_by_key[key] + [values_by_key[key][0] + 1]
    states[three] = state_of([], [[k[0] for k in parts[three]]], [], list(parts[three].values()))
    log = []
    stats, rounds, _ = merged_of(states, log)
    assert rounds == 1 and 1 <= log[0] <= 2 * len(parts)  # its one or two targets, in the reports that have it
    for key, values in values_by_key.items():
        assert stats[key] == engine_stats(values), key

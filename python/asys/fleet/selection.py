"""Exact order statistics over values spread across many reports.

Counting selection: a target is (group, rank) in the group's values of all
reports together. Each round asks every report, for each target still
open, how many of its values fall in each of B equal value buckets of the
target's current range; the sums locate the bucket holding the rank, which
becomes the next range. A range holding few enough values is fetched whole
in the next round instead. The ranges only narrow, so a 64-bit range takes
at most ceil(64 / log2 B) + 1 rounds; what a report sends back per round is
its counts of at most COUNT_BUCKETS buckets (those that hold a value), at
most FETCH_AT_MOST values per fetched target, and the values of the wide
ranges fetched at once (at most WIDE_FETCH_BUDGET bytes of them). A range
at most B values wide is counted one value a bucket: its target is
settled in that round.

Targets are columns (NumPy arrays), never a Python object each: a merged
table of a million groups has two million targets.
"""

import numpy as np

# A range's values are fetched whole once all reports hold at most this many.
FETCH_AT_MOST = 256
# A range too wide to count one value a bucket (more than EXACT_BUCKETS
# values wide) is fetched whole while it holds at most this many values, up
# to the round's budget (``_narrow``): counted, it would take a round of
# counts and then a fetch (osrt_sum's 2^19-wide buckets of a few thousand
# values on the bench's ranks).
FETCH_WIDE_AT_MOST = 16384
# A count query's buckets, at most: a range at most this wide is cut into
# buckets one value wide where the round's budget allows, which settles
# its target in that round (the kernel summaries' ranges after the fixed
# buckets are 64-8192 values wide, though they hold up to 100 k values).
EXACT_BUCKETS = 8192
# A round's buckets of one rule's count queries, at most: the client adds
# the reports' counts into one int64 column of them (1 MB); a report sends
# those that hold a value (wire.sparse_counts: a position of 4 bytes and a
# count, narrowed; _asys.answer_counts_sparse walks its values, without a
# column of all buckets), at most as many as it has values in the ranges:
# on the bench's ranks at most 65 KB a report a rule. Before, 2^15 buckets.
COUNT_BUCKETS = 1 << 17
# What a report may send a round for one rule's fetches of wide ranges
# (_narrow), in bytes of values.
WIDE_FETCH_BUDGET = 1 << 18


class Targets:
    """Columns of targets: ``group`` (an integer the queries carry), ``rank``
    in the group's values of all reports, the range [lo, hi] known to hold
    it, how many values lie below the range (``below``), and, once found,
    ``value`` (``done``)."""

    def __init__(self, group, rank, lo, hi, count):
        self.group = np.asarray(group, dtype=np.int64)
        self.rank = np.asarray(rank, dtype=np.int64)
        self.lo = np.asarray(lo, dtype=np.int64).copy()
        self.hi = np.asarray(hi, dtype=np.int64).copy()
        self.below = np.zeros(len(self.group), dtype=np.int64)
        count = np.asarray(count, dtype=np.int64)
        # The extremes are known: the minimum, the maximum, a range of one value.
        self.done = (self.lo == self.hi) | (self.rank == 0) | (self.rank == count - 1)
        self.value = np.where(self.rank == count - 1, self.hi, self.lo)
        # A small group's values are fetched at once, without counting.
        self.fetch = count <= FETCH_AT_MOST

    def __len__(self):
        return len(self.group)


# The value buckets a report counts its values in at its load (its head
# carries them, ``histogram``): fixed, so that no group's global range is
# needed. A value v >= 0 of bit length e falls in a bucket of width
# 2^max(0, e - BUCKET_BITS) (below 2^BUCKET_BITS each value is a bucket);
# every negative value in one. Each bucket's values within 2^-(BUCKET_BITS-1)
# of each other: the first counting round of the median selection, done
# where each report's values already are, with the load.
BUCKET_BITS = 6


def _bit_length(u):
    """Bit lengths of non-negative int64 values, exactly (0 for 0)."""
    u = np.asarray(u, dtype=np.int64).copy()
    n = np.zeros(len(u), dtype=np.int64)
    for b in (32, 16, 8, 4, 2, 1):
        t = u >> b
        up = t > 0
        n += b * up
        u = np.where(up, t, u)
    return n + (u > 0)


def bucket_keys(values, bits=BUCKET_BITS):
    """Each value's fixed bucket (int64 keys, increasing with the value;
    -1 for every negative value)."""
    v = np.asarray(values, dtype=np.int64)
    key = np.full(len(v), -1, dtype=np.int64)
    pos = v >= 0
    u = v[pos]
    shift = np.maximum(_bit_length(u) - bits, 0)
    key[pos] = (shift << bits) | (u >> shift)
    return key


def bucket_bounds(keys, bits=BUCKET_BITS):
    """The value range [lo, hi] of each bucket key (bucket_keys)."""
    k = np.asarray(keys, dtype=np.int64)
    neg = k < 0
    kk = np.where(neg, 0, k)
    shift = kk >> bits
    lo = (kk & ((1 << bits) - 1)) << shift
    hi = lo + ((np.int64(1) << shift) - 1)
    lo = np.where(neg, np.iinfo(np.int64).min, lo)
    hi = np.where(neg, -1, hi)
    return lo, hi


def _runs(group, key):
    """(group, key) pairs in order, each run of equal pairs once, with its length."""
    if not len(key):
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    new = np.ones(len(key), dtype=bool)
    new[1:] = (key[1:] != key[:-1]) | (group[1:] != group[:-1])
    at = np.flatnonzero(new)
    return group[at], key[at], np.diff(np.append(at, len(key)))


def _ranges(start, length):
    """The indices start[i] .. start[i] + length[i] - 1 of every i, one after the other."""
    total = int(length.sum())
    return np.repeat(start - (np.cumsum(length) - length), length) + np.arange(total, dtype=np.int64)


def histogram(values, offsets, least=3, bits=BUCKET_BITS):
    """A report's values (sorted within each group, group g at
    offsets[g]:offsets[g + 1]) counted in the fixed buckets, for the groups
    of at least ``least`` values (a group of one or two has them as its min
    and max): columns (group, bucket key, count), by group then key.

    The values being sorted, a group's buckets are those from its first
    value's to its last's, and each bucket's count is where its first value
    lies (a bisection of all buckets at once, ~20 vectorized steps over a
    few thousand buckets), not a key computed for every value (15 ms of a
    scale-100 rank report's 0.1 s load for the six summaries, and a few
    temporaries of 8 bytes a value on the worker's peak). A group with
    fewer values than buckets between its ends takes a key a value."""
    values = np.asarray(values)
    offsets = np.asarray(offsets, dtype=np.int64)
    count = np.diff(offsets)
    big = np.flatnonzero(count >= least)
    parts = []
    if len(big):
        start, end, n = offsets[big], offsets[big + 1], count[big]
        first = bucket_keys(values[start], bits)
        span = bucket_keys(values[end - 1], bits) - first + 1
        wide = span > n
        if wide.any():
            at = _ranges(start[wide], n[wide])
            parts.append(_runs(np.repeat(big[wide], n[wide]), bucket_keys(values[at], bits)))
        narrow = ~wide
        if narrow.any():
            span = span[narrow]
            group = np.repeat(big[narrow], span)
            key = _ranges(first[narrow], span)
            lo_of, hi_of = np.repeat(start[narrow], span), np.repeat(end[narrow], span)
            # Only keys a value can have: above 2^bits, the low bits' top bit set.
            low = key & ((1 << bits) - 1)
            valid = (key < (1 << bits)) | (low >= (1 << (bits - 1)))
            group, key, lo_of, hi_of = group[valid], key[valid], lo_of[valid], hi_of[valid]
            edge = bucket_bounds(key, bits)[0]
            # The first index of each bucket's group holding a value >= its lower edge.
            lo, hi = lo_of.copy(), hi_of.copy()
            while True:
                open_ = lo < hi
                if not open_.any():
                    break
                mid = (lo + hi) >> 1
                up = open_ & (values[np.minimum(mid, len(values) - 1)] < edge)
                lo = np.where(up, mid + 1, lo)
                hi = np.where(open_ & ~up, mid, hi)
            following = np.empty(len(lo), dtype=np.int64)
            following[:-1] = lo[1:]
            last = np.ones(len(lo), dtype=bool)
            last[:-1] = group[1:] != group[:-1]
            following[last] = hi_of[last]
            c = following - lo
            some = c > 0
            parts.append((group[some], key[some], c[some]))
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    group, key, n = (np.concatenate(c).astype(np.int64) for c in zip(*parts))
    order = np.lexsort((key, group))
    return group[order], key[order], n[order]


def _narrow(t, counting, seen, lo, hi, in_bucket):
    """The targets `counting` narrowed to the bucket [lo, hi] that holds
    their rank, `seen` values below it: a bucket of one value is the answer;
    one of at most FETCH_AT_MOST values is fetched whole next round, and so
    is one wider than EXACT_BUCKETS values that holds at most
    FETCH_WIDE_AT_MOST (the fewest first, while all of them together hold at
    most WIDE_FETCH_BUDGET bytes of values: a report sends at most that
    for them), where counting would take a round more."""
    t.below[counting] += seen
    t.lo[counting] = lo
    t.hi[counting] = hi
    one = lo == hi
    t.value[counting[one]] = lo[one]
    t.done[counting[one]] = True
    few = ~one & (in_bucket <= FETCH_AT_MOST)
    wide = hi.view(np.uint64) - lo.view(np.uint64) >= np.uint64(EXACT_BUCKETS)
    # The two middle ranks of a group often share a range: its values are
    # fetched (and counted against the budget) once.
    candidates = np.flatnonzero(~few & wide & (in_bucket <= FETCH_WIDE_AT_MOST))
    if len(candidates):
        (_g, _lo, _hi), which = _unique_rows(t.group[counting[candidates]], lo[candidates], hi[candidates])
        size = np.zeros(len(_g), dtype=np.int64)
        size[which] = in_bucket[candidates]
        by_size = np.argsort(size, kind="stable")
        taken = np.zeros(len(_g), dtype=bool)
        taken[by_size[np.cumsum(size[by_size]) * 8 <= WIDE_FETCH_BUDGET]] = True
        few[candidates[taken[which]]] = True
    t.fetch[counting[few]] = True


def narrow_by_histogram(targets, group, key, count, bits=BUCKET_BITS):
    """The first counting round from the reports' fixed-bucket histograms,
    with no query to any report: ``group``, ``key``, ``count`` are the
    merged groups' bucket counts of all reports, sorted by (group, key),
    each pair once, for (at least) every group of a target still counting.
    Each such target's range becomes the bucket holding its rank (within
    the group's [min, max]); ``below`` the values before it; a bucket of
    few values is fetched next, as a counting round leaves it."""
    t = targets
    counting = np.flatnonzero(~t.done & ~t.fetch)
    if not len(counting) or not len(group):
        return
    g = t.group[counting]
    first = np.searchsorted(group, g, side="left")
    end = np.searchsorted(group, g, side="right")
    if np.any(first == end):
        raise AssertionError("a counting target's group has no histogram")
    running = np.cumsum(count)
    base = np.where(first > 0, running[np.maximum(first - 1, 0)], 0)
    need = t.rank[counting] - t.below[counting] + base
    at = np.searchsorted(running, need, side="right")
    if np.any(at >= end):
        raise AssertionError("a rank is past the values of its group")
    seen = np.where(at > 0, running[np.maximum(at - 1, 0)], 0) - base
    lo, hi = bucket_bounds(key[at], bits)
    lo = np.maximum(lo, t.lo[counting])
    hi = np.minimum(hi, t.hi[counting])
    _narrow(t, counting, seen, lo, hi, count[at])


def _unique_rows(*columns):
    """The distinct rows of equal-length int64 columns, and each row's index among them."""
    if len(columns[0]) == 0:
        return [c[:0] for c in columns], np.zeros(0, dtype=np.int64)
    order = np.lexsort(columns[::-1])
    sorted_cols = [c[order] for c in columns]
    new = np.ones(len(order), dtype=bool)
    new[1:] = np.any([np.diff(c) != 0 for c in sorted_cols], axis=0)
    ids = np.cumsum(new) - 1
    inverse = np.empty(len(order), dtype=np.int64)
    inverse[order] = ids
    return [c[new] for c in sorted_cols], inverse


def _buckets_each(lo, hi, budget):
    """Per count query, how many buckets to cut its range [lo, hi] into:
    at most EXACT_BUCKETS and as many as the range has values, at least 4,
    at most ``budget`` over all the queries (but for that floor of 4). The
    narrowest ranges come first: a range cut into buckets one value wide
    settles its target in this round; the wider ones share what is left
    equally, each min(want, c) for the largest c that fits (before: every
    query an equal share of 32 k buckets, so the kernel summaries' 128-value
    ranges took a round more when 90 queries shared them)."""
    if not len(lo):
        return np.zeros(0, dtype=np.int64)
    span = hi.view(np.uint64) - lo.view(np.uint64)  # values in the range - 1, < 2^64
    want = np.minimum(span, np.uint64(EXACT_BUCKETS - 1)).astype(np.int64) + 1
    if int(want.sum()) <= budget:
        return want
    # The largest equal share c (water filling): sum(min(want, c)) <= budget.
    ordered = np.sort(want)
    below = np.concatenate([[0], np.cumsum(ordered)[:-1]])  # sum of the narrower ones
    share = (budget - below) // (len(ordered) - np.arange(len(ordered)))
    # The first query whose want exceeds the share the rest would get.
    over = np.flatnonzero(ordered > share)
    c = int(share[over[0]]) if len(over) else int(ordered[-1])
    return np.maximum(np.minimum(want, c), 4)


def buckets_of(lo, hi, buckets):
    """Equal buckets of [lo, hi] (a 64-bit span in unsigned arithmetic, exact):
    their width and how many it takes."""
    span = hi.view(np.uint64) - lo.view(np.uint64)  # hi - lo, < 2^64
    width = span // np.uint64(buckets) + np.uint64(1)  # ceil((span + 1) / buckets)
    count = span // width + np.uint64(1)
    return width.astype(np.int64), count.astype(np.int64)


def select(targets, ask, buckets=COUNT_BUCKETS):
    """Fills ``targets.value``. ``ask(count_queries, fetch_queries)``
    answers one round over all the reports: count queries are columns
    (group, lo, width, buckets, hi) and it returns the bucket counts summed
    over the reports, one query's after the other; fetch queries are
    columns (group, lo, hi) and it returns the values in [lo, hi] of all
    reports, each query's sorted, one query's after the other, and where
    each query's start. Returns the rounds."""
    return drive(selection_rounds(targets, buckets), ask)


def drive(rounds, ask):
    """Runs a generator of rounds (selection_rounds) to its end, each
    round's queries answered by ``ask``; returns what the generator returns."""
    try:
        queries = next(rounds)
        while True:
            queries = rounds.send(ask(*queries))
    except StopIteration as done:
        return done.value


def selection_rounds(targets, buckets=COUNT_BUCKETS):
    """select as a generator, so that many selections (every rule's) can
    share their rounds: it yields each round's (count queries, fetch
    queries), is sent (counts, values, starts) as select's ``ask`` returns
    them, and returns the number of rounds once ``targets.value`` is filled."""
    t = targets
    rounds = 0
    while True:
        open_ = ~t.done
        counting = np.flatnonzero(open_ & ~t.fetch)
        fetching = np.flatnonzero(open_ & t.fetch)
        if len(counting) == 0 and len(fetching) == 0:
            return rounds
        # The two middle values of a group often share their range: asked once.
        (cg, clo, chi), cq = _unique_rows(t.group[counting], t.lo[counting], t.hi[counting])
        (fg, flo, fhi), fq = _unique_rows(t.group[fetching], t.lo[fetching], t.hi[fetching])
        width, nb = buckets_of(clo, chi, _buckets_each(clo, chi, buckets))
        counts, values, starts = yield (cg, clo, width, nb, chi), (fg, flo, fhi)
        rounds += 1
        # Fetched: the rank's value among the query's sorted values.
        if len(fetching):
            t.value[fetching] = values[starts[fq] + t.rank[fetching] - t.below[fetching]]
            t.done[fetching] = True
        if len(counting) == 0:
            continue
        # Counted: the first bucket whose running count passes the rank.
        seg = np.concatenate([[0], np.cumsum(nb)]).astype(np.int64)
        running = np.cumsum(counts)
        base = np.where(seg[:-1] > 0, running[np.maximum(seg[:-1] - 1, 0)], 0)
        q = cq
        need = t.rank[counting] - t.below[counting] + base[q]  # values before the rank, as a running count
        at = np.searchsorted(running, need, side="right")
        if np.any(at >= seg[1:][q]):
            raise AssertionError("a rank is past the values of its group")
        bucket = at - seg[:-1][q]
        seen = np.where(at > 0, running[np.maximum(at - 1, 0)], 0) - base[q]
        in_bucket = counts[at]
        lo = (clo[q].view(np.uint64) + width[q].view(np.uint64) * bucket.view(np.uint64)).view(np.int64)
        room = chi[q].view(np.uint64) - lo.view(np.uint64)  # the range's end: at most hi
        hi = (lo.view(np.uint64) + np.minimum((width[q] - 1).view(np.uint64), room)).view(np.int64)
        _narrow(t, counting, seen, lo, hi, in_bucket)


def join_answers(answers, fetch_count):
    """The reports' fetch answers of one round (values, how many a query)
    as select's ask returns them: per query, the values of all reports
    sorted, and where each query's start."""
    query = np.concatenate([np.repeat(q, n) for q, _v, n in answers] or [np.zeros(0, np.int64)])
    values = np.concatenate([v for _q, v, _n in answers] or [np.zeros(0, np.int64)])
    order = np.lexsort((values, query))
    sizes = np.bincount(query, minlength=fetch_count) if len(query) else np.zeros(fetch_count, np.int64)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return values[order], starts

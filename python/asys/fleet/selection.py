"""Exact order statistics over values spread across many reports.

Counting selection: a target is (group, rank) in the group's values of all
reports together. Each round asks every report, for each target still
open, how many of its values fall in each of B equal value buckets of the
target's current range; the sums locate the bucket holding the rank, which
becomes the next range. A range holding few enough values is fetched whole
in the next round instead. The ranges only narrow, so a 64-bit range takes
at most ceil(64 / log2 B) + 1 rounds; what a report sends back per round is
at most B counts per open target, bounded by ``reply_budget`` bytes, plus
at most FETCH_AT_MOST values per fetched target.
"""

import numpy as np

# A range's values are fetched whole once all reports hold at most this many.
FETCH_AT_MOST = 256


class Target:
    __slots__ = ("key", "rank", "lo", "hi", "below", "value", "fetch")

    def __init__(self, key, rank, lo, hi, count):
        self.key, self.rank, self.lo, self.hi, self.below = key, rank, lo, hi, 0
        self.value = lo if lo == hi else None
        # A small group's values are fetched at once, without counting.
        self.fetch = count <= FETCH_AT_MOST


def select(targets, ask, reply_budget=1 << 18):
    """Fills each target's ``value``. ``ask(count_queries, fetch_queries)``
    answers one round over all the reports: for the count queries (rows of
    key, lo, width, buckets, hi: an int64 array) the bucket counts summed
    over the reports, one query's after the other; for the fetch queries
    (rows of key, lo, hi) the values in [lo, hi] of all reports, one query's
    after the other, each query's sorted, and where each query's start.
    Keys are integers (the merged groups' indices). Returns the rounds."""
    rounds = 0
    while True:
        counting = [t for t in targets if t.value is None and not t.fetch]
        fetching = [t for t in targets if t.value is None and t.fetch]
        if not counting and not fetching:
            return rounds
        buckets = max(2, min(4096, reply_budget // (8 * max(1, len(counting)))))
        count_queries = []
        for t in counting:
            width = -(-(t.hi - t.lo + 1) // buckets)
            count_queries.append((t.key, t.lo, width, -(-(t.hi - t.lo + 1) // width), t.hi))
        # The two middle values of a group often share their range: asked once.
        fetch_index = {}
        for t in fetching:
            fetch_index.setdefault((t.key, t.lo, t.hi), len(fetch_index))
        counts, values, starts = ask(np.array(count_queries, dtype=np.int64).reshape(-1, 5),
                                     np.array(list(fetch_index), dtype=np.int64).reshape(-1, 3))
        rounds += 1
        for t in fetching:
            t.value = int(values[starts[fetch_index[(t.key, t.lo, t.hi)]] + t.rank - t.below])
        at = 0
        for t, (_key, lo, width, n, hi) in zip(counting, count_queries):
            bucket_counts = counts[at:at + n].tolist()
            at += n
            seen = t.below
            for j, c in enumerate(bucket_counts):
                if seen + c > t.rank:
                    t.below, t.lo = seen, lo + j * width
                    t.hi = min(hi, t.lo + width - 1)
                    if t.lo == t.hi:
                        t.value = t.lo
                    elif c <= FETCH_AT_MOST:
                        t.fetch = True
                    break
                seen += c
            else:
                raise AssertionError("rank %d is past the values of group %r" % (t.rank, t.key))


def join_answers(answers, fetch_count):
    """The reports' answers (ReportState.answer) of one round as select's
    ask returns them: counts summed, fetched values joined per query."""
    counts = sum(a[0] for a in answers) if answers else np.zeros(0, dtype=np.int64)
    query = np.concatenate([np.repeat(np.arange(fetch_count), a[2]) for a in answers] or [np.zeros(0, np.int64)])
    values = np.concatenate([a[1] for a in answers] or [np.zeros(0, np.int64)])
    order = np.lexsort((values, query))
    sizes = np.bincount(query, minlength=fetch_count)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    return counts, values[order], starts

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

# A range's values are fetched whole once all reports hold at most this many.
FETCH_AT_MOST = 256


class Target:
    __slots__ = ("key", "rank", "lo", "hi", "below", "value", "fetch")

    def __init__(self, key, rank, lo, hi):
        self.key, self.rank, self.lo, self.hi, self.below = key, rank, lo, hi, 0
        self.value = lo if lo == hi else None
        self.fetch = False


def select(targets, ask, reply_budget=1 << 18):
    """Fills each target's ``value``. ``ask(count_queries, fetch_queries)``
    answers in one round, summed or joined over the reports: per count query
    (key, lo, width, buckets, hi) the bucket counts, per fetch query
    (key, lo, hi) the sorted values in [lo, hi]. Returns the rounds asked."""
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
        counts, values = ask(count_queries, [(t.key, t.lo, t.hi) for t in fetching])
        rounds += 1
        for t, found in zip(fetching, values):
            t.value = int(found[t.rank - t.below])
        for t, (_key, lo, width, _n, hi), bucket_counts in zip(counting, count_queries, counts):
            seen = t.below
            for j, c in enumerate(bucket_counts.tolist()):
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
                raise AssertionError("rank %d is past the values of %r" % (t.rank, t.key))

"""One report's mergeable state of one duration summary rule.

Made in a worker from the report's groups (``_asys.grouped_durations``):
per group its key texts, count, exact integer sum, min, max and sum of
squares, and the group's values sorted, which stay on the worker (the state
is a Dask future between the median rounds) and answer the rounds' counting
queries. Only ``summary()`` and the rounds' answers travel: a few numbers a
group, never the value lists.
"""

import numpy as np

from .. import _asys


def _words_to_ints(words):
    lo, mid, hi = (w.astype(object) for w in words)
    return [int(a) | (int(b) << 64) | (int(c) << 128) for a, b, c in zip(lo, mid, hi)]


class ReportState:
    """The state of ``rule`` on one open report (an ``asys.Report``), with
    ``settings`` as ``asys._options.run_settings`` makes them."""

    def __init__(self, report, rule, settings):
        groups = _asys.grouped_durations(report._engine, rule, *settings)
        self.rule = rule
        self.path = report.paths[0]
        # Per text column, the groups' texts (tuples are made only for the
        # summary: a report of 50 k ranges would hold 50 k of them).
        self.texts = groups["texts"]
        self.offsets = groups["offsets"]
        self.values = groups["values"]
        self.sumsq_words = groups["sumsq"]
        self.warnings = list(groups["warnings"])

    @property
    def keys(self):
        return list(zip(*self.texts)) if self.texts else []

    def summary(self):
        """What merges by addition: per group key, (count, sum, min, max, sum of squares)."""
        starts, ends = self.offsets[:-1], self.offsets[1:]
        counts = (ends - starts).tolist()
        sums = [int(s) for s in np.add.reduceat(self.values.astype(object), starts)] if len(self.values) else []
        mins = self.values[starts].tolist() if len(self.values) else []
        maxs = self.values[ends - 1].tolist() if len(self.values) else []
        sumsq = _words_to_ints(self.sumsq_words)
        return {key: (counts[g], sums[g], mins[g], maxs[g], sumsq[g]) for g, key in enumerate(self.keys)}

    def _segment(self, index, keys, group):
        """The values here of the group keys[group] (index: key -> group here)."""
        g = index.get(keys[group])
        if g is None:
            return self.values[:0]
        return self.values[self.offsets[g]:self.offsets[g + 1]]

    def answer(self, keys, count_queries, fetch_queries):
        """One selection round's answer of this report (selection.select),
        as three flat arrays. A query's group is an index into `keys`. For
        the count queries (rows of group, lo,
        width, buckets, hi) their bucket counts one after the other; for the
        fetch queries (rows of group, lo, hi) the values in [lo, hi] one
        query after the other, each query's sorted, and how many each."""
        # Made per round, not kept: between rounds a state holds no key objects.
        index = {key: g for g, key in enumerate(self.keys)}
        counts = []
        for group, lo, width, buckets, hi in count_queries.tolist():
            segment = self._segment(index, keys, group)
            edges = lo + width * np.arange(buckets, dtype=np.int64)
            left = np.searchsorted(segment, edges, side="left")
            right = np.searchsorted(segment, np.int64(hi), side="right")
            counts.append(np.diff(np.append(left, right)))
        values, lengths = [], np.zeros(len(fetch_queries), dtype=np.int64)
        for q, (group, lo, hi) in enumerate(fetch_queries.tolist()):
            segment = self._segment(index, keys, group)
            a = np.searchsorted(segment, np.int64(lo), side="left")
            b = np.searchsorted(segment, np.int64(hi), side="right")
            values.append(segment[a:b])
            lengths[q] = b - a
        flat = lambda parts: np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)  # noqa: E731
        return flat(counts), flat(values), lengths

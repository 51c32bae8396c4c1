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
        self.keys = list(zip(*groups["texts"])) if groups["texts"] else []
        self.offsets = groups["offsets"]
        self.values = groups["values"]
        self.sumsq = _words_to_ints(groups["sumsq"])
        self.warnings = list(groups["warnings"])

    def summary(self):
        """What merges by addition: per group key, (count, sum, min, max, sum of squares)."""
        starts, ends = self.offsets[:-1], self.offsets[1:]
        counts = (ends - starts).tolist()
        sums = [int(s) for s in np.add.reduceat(self.values.astype(object), starts)] if len(self.values) else []
        mins = self.values[starts].tolist() if len(self.values) else []
        maxs = self.values[ends - 1].tolist() if len(self.values) else []
        out = {}
        for g, key in enumerate(self.keys):
            if counts[g] == 0:
                continue
            out[key] = (counts[g], sums[g], mins[g], maxs[g], self.sumsq[g])
        return out

    def _segment(self, key):
        g = self._index.get(key)
        if g is None:
            return self.values[:0]
        return self.values[self.offsets[g]:self.offsets[g + 1]]

    @property
    def _index(self):
        index = getattr(self, "_key_index", None)
        if index is None:
            index = self._key_index = {key: g for g, key in enumerate(self.keys)}
        return index

    def answer(self, count_queries, fetch_queries):
        """One selection round's answer of this report (selection.select)."""
        return self.count_buckets(count_queries), self.values_between(fetch_queries)

    def count_buckets(self, queries):
        """For each (key, lo, width, buckets, hi): how many of the group's
        values fall in [lo + j*width, lo + (j+1)*width) for each bucket j,
        the last bucket ending at hi (inclusive)."""
        answers = []
        for key, lo, width, buckets, hi in queries:
            segment = self._segment(key)
            edges = [lo + j * width for j in range(buckets)]
            left = np.searchsorted(segment, np.array(edges, dtype=np.int64), side="left")
            right = np.searchsorted(segment, np.int64(hi), side="right")
            answers.append(np.diff(np.append(left, right)).astype(np.int64))
        return answers

    def values_between(self, queries):
        """For each (key, lo, hi): the group's values in [lo, hi], sorted."""
        answers = []
        for key, lo, hi in queries:
            segment = self._segment(key)
            a = np.searchsorted(segment, np.int64(lo), side="left")
            b = np.searchsorted(segment, np.int64(hi), side="right")
            answers.append(segment[a:b].copy())
        return answers

"""One report's mergeable state of one rule.

Made in a worker from the report's groups (``_asys.grouped_durations``, the
rule's own RuleSpec::groupedDurations in core): per group its keys (id
columns, renumbered as asys merge renumbers them, and texts), the integer
sums that add up across reports, count, exact integer sum, min, max and sum
of squares of its values, and the values sorted, which stay on the worker
(the state is a Dask future between the median rounds) and answer the
rounds' counting queries. Only ``summary()`` and the rounds' answers
travel: a few numbers a group, as columns, never the value lists.
"""

import os
import tempfile
import weakref

import numpy as np

from .. import _asys
from ..report import AsysError
from . import wire
from .selection import histogram

# A group's total beyond this (as a double) may have left int64, as the
# engine's own total would: refused rather than wrapped.
_INT64_SAFE = float(2**63 - 2**11)


class ReportState:
    """The state of ``rule`` on one open report (an ``asys.Report``), with
    ``settings`` as ``asys._options.run_settings`` makes them. With
    ``spill_dir`` (a worker's own folder) the values go to a file there
    once the summary is made, and each round maps them for its answer only:
    a worker then holds a few numbers a group of each of its reports, not
    their values (docs/fleet.md, "Worker memory")."""

    def __init__(self, report, rule, settings, spill_dir=None):
        groups = _asys.grouped_durations(report._engine, rule, *settings)
        self._take(rule, report.paths[0], groups, spill_dir)

    @classmethod
    def of_groups(cls, rule, path, groups, spill_dir=None):
        """A state from groups as ``_asys.grouped_durations`` gives them."""
        state = cls.__new__(cls)
        state._take(rule, path, groups, spill_dir)
        return state

    def _take(self, rule, path, g, spill_dir):
        self.rule, self.path = rule, path
        # The key texts: a pool of the report's distinct texts (bytes and
        # offsets, each text once) and per text column each group's id in
        # it; or, from a test, columns of str, pooled here.
        if "pool" in g:
            self.pool, self.texts = tuple(g["pool"]), list(g["texts"])
        else:
            self.pool, self.texts = pooled(g["texts"])
        self.ids = list(g["ids"])
        self.id_kinds = list(g["id_kinds"])
        self.sums = list(g["sums"])
        self.offsets = g["offsets"]
        self.sumsq_words = g["sumsq"]
        self.warnings = list(g["warnings"])
        # Per group, the report's own union of its spans (offsets, starts,
        # ends), or None: a rule without spans (docs/fleet.md).
        self.spans = g.get("spans")
        values = g["values"]
        self._moments = self._moments_of(values)
        # The values counted in fixed buckets (groups of three values or
        # more): the medians' first counting round, sent with the summary.
        self._hist = histogram(values, self.offsets)
        self._values, self._file, self._length = values, None, len(values)
        if spill_dir is not None and len(values):
            fd, self._file = tempfile.mkstemp(prefix="asys-state-", suffix=".int64", dir=spill_dir)
            with os.fdopen(fd, "wb") as f:
                values.tofile(f)
            weakref.finalize(self, _remove, self._file)
            self._values = None

    def __getstate__(self):
        # A state Dask moves to another worker takes its values along: the
        # file is this worker's.
        state = dict(self.__dict__)
        state["_values"], state["_file"] = np.array(self.values()), None
        return state

    def values(self):
        """The groups' values, sorted within each group: in memory, or
        mapped from the spill file for as long as the caller holds them."""
        if self._values is not None:
            return self._values
        if self._file is None:
            return np.zeros(0, dtype=np.int64)
        return np.memmap(self._file, dtype=np.int64, mode="r", shape=(self._length,))

    def _moments_of(self, values):
        starts, ends = self.offsets[:-1], self.offsets[1:]
        count = ends - starts
        total = np.zeros(len(count), dtype=np.int64)
        lo = np.zeros(len(count), dtype=np.int64)
        hi = np.zeros(len(count), dtype=np.int64)
        some = count > 0
        if some.any():
            # reduceat over the non-empty groups' starts: each runs to the next one's.
            at = starts[some]
            total[some] = np.add.reduceat(values, at)
            lo[some] = values[at]
            hi[some] = values[ends[some] - 1]
            # A total may have left int64 only where count * max |value|
            # reaches it (values sorted: min and max bound them); only
            # those groups are added again in double precision (before,
            # every value was copied as a double: 8 bytes an event).
            bound = np.maximum(np.abs(lo.astype(np.float64)), np.abs(hi.astype(np.float64))) * count
            for g in np.flatnonzero(bound >= _INT64_SAFE).tolist():
                if abs(float(np.sum(values[starts[g]:ends[g]], dtype=np.float64))) >= _INT64_SAFE:
                    raise AsysError("%s: %s: a group's total leaves 64-bit integers" % (self.rule, self.path))
        return count, total, lo, hi

    def summary(self, pids=(), devices=(), time_shift=0, kernel_row_shift=0):
        """What merges by addition, as columns: keys, count, sum, min, max,
        sum of squares (three 64-bit words) and the rule's sums per group.
        The ids are renumbered as asys merge renumbers this report's
        (``pids``, ``devices``: (old, new) pairs; ``time_shift`` onto the
        first report's clock; ``kernel_row_shift``: the kernels of the
        reports before), on a copy: a task run again renumbers the same ids.
        (The fleet renumbers on the client, ``renumbered``, once every
        report's ids are known: the summaries leave with the heads.)"""
        count, total, lo, hi = self._moments
        return renumbered({"texts": self.texts, "pool": self.pool, "ids": self.ids, "id_kinds": self.id_kinds, "sums": self.sums,
                           "count": count, "total": total, "min": lo, "max": hi, "sumsq": self.sumsq_words,
                           "spans": self.spans is not None, "hist": self._hist}, pids, devices, time_shift,
                          kernel_row_shift)

    def merged_spans(self, where, time_shift=0):
        """The report's union blocks as columns (merged group, start, end):
        its groups numbered as ``where`` (Merged.where) says, its times moved
        onto the first report's clock as its kTime ids are."""
        offsets, starts, ends = self.spans
        group = np.repeat(np.asarray(where, dtype=np.int64), np.diff(offsets))
        return group, starts + np.int64(time_shift), ends + np.int64(time_shift)

    def shrink(self):
        """Once its summary has gone: what the rounds need only (offsets
        and values), not the keys, sums and moments (a state of 12 k named
        groups holds 2 MB of them)."""
        self.texts = self.pool = self.ids = self.sums = self.sumsq_words = self._moments = self._hist = None

    def _bisect(self, v, group, x, right):
        """Per query, where x falls in its group's sorted values (an index
        into v, the values): the first value >= x, or > x with ``right``."""
        lo = self.offsets[group].copy()
        hi = self.offsets[group + 1].copy()
        while True:
            open_ = lo < hi
            if not open_.any():
                return lo
            mid = (lo + hi) >> 1
            probe = v[np.minimum(mid, len(v) - 1)] if len(v) else np.zeros(len(mid), np.int64)
            up = open_ & ((probe <= x) if right else (probe < x))
            lo = np.where(up, mid + 1, lo)
            hi = np.where(open_ & ~up, mid, hi)

    def _search(self, v, group, x, right):
        """_bisect's answer, by one np.searchsorted a group where the
        queries come many a group (a count query's bucket edges: up to 4096
        a group), which takes one C call a group where the bisection takes
        17 vectorized steps over all edges; else the bisection (many groups
        of one or two queries, as a first round's fetches)."""
        n = len(group)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        order = np.argsort(group, kind="stable")
        g = group[order]
        cuts = np.flatnonzero(g[1:] != g[:-1]) + 1
        if (len(cuts) + 1) * 8 > n:
            return self._bisect(v, group, x, right)
        side = "right" if right else "left"
        xs = x[order]
        out = np.empty(n, dtype=np.int64)
        bounds = [0] + cuts.tolist() + [n]
        for s, e in zip(bounds[:-1], bounds[1:]):
            lo, hi = int(self.offsets[g[s]]), int(self.offsets[g[s] + 1])
            out[order[s:e]] = lo + np.searchsorted(v[lo:hi], xs[s:e], side=side)
        return out

    def answer(self, count_queries, fetch_queries, sparse=False):
        """One selection round's answer of this report (selection.select).
        The queries name this report's own groups. Count queries: columns
        (group, lo, width, buckets, hi); the answer is their bucket counts
        one query after the other (``sparse``: as they cross,
        wire.sparse_counts). Fetch queries: columns (group, lo, hi);
        the answer is the values in [lo, hi], one query after the other,
        each query's sorted, and how many each."""
        v = self.values()
        group, lo, width, buckets, hi = count_queries
        fgroup, flo, fhi = fetch_queries
        if sparse:
            if hasattr(_asys, "answer_counts_sparse"):
                # The values in each range walked, only the buckets that
                # hold one made (a range counted one value a bucket has
                # up to 8192 of them, a report's few hundred values in it).
                size, at, n = _asys.answer_counts_sparse(v, self.offsets, group, lo, width, buckets, hi)
                counts = (size, wire.narrow(at), wire.narrow(n))
                values, lengths = _asys.answer_fetch(v, self.offsets, fgroup, flo, fhi)
                return counts, values, lengths
            counts, values, lengths = self.answer(count_queries, fetch_queries)
            return wire.sparse_counts(counts), values, lengths
        if hasattr(_asys, "answer_counts"):
            # In C++, a binary search an edge (docs/fleet.md item 21); the
            # NumPy version below is the reference the tests hold it to.
            counts = _asys.answer_counts(v, self.offsets, group, lo, width, buckets, hi)
            values, lengths = _asys.answer_fetch(v, self.offsets, fgroup, flo, fhi)
            return counts, values, lengths
        return self._answer_numpy(v, count_queries, fetch_queries)

    def _answer_numpy(self, v, count_queries, fetch_queries):
        group, lo, width, buckets, hi = count_queries
        if len(group):
            query = np.repeat(np.arange(len(group)), buckets)
            first = np.concatenate([[0], np.cumsum(buckets)[:-1]]).astype(np.int64)
            step = np.arange(len(query), dtype=np.int64) - first[query]
            # lo + width * step <= hi: exact in 64-bit unsigned arithmetic.
            edges = (lo[query].view(np.uint64) + width[query].view(np.uint64) * step.view(np.uint64)).view(np.int64)
            left = self._search(v, group[query], edges, right=False)
            end = self._search(v, group, hi, right=True)
            following = np.empty(len(query), dtype=np.int64)
            following[:-1] = left[1:]
            last = np.concatenate([first[1:] - 1, [len(query) - 1]])
            following[last] = end
            counts = following - left
        else:
            counts = np.zeros(0, dtype=np.int64)
        fgroup, flo, fhi = fetch_queries
        if len(fgroup):
            a = self._search(v, fgroup, flo, right=False)
            b = self._search(v, fgroup, fhi, right=True)
            lengths = b - a
            at = np.repeat(a - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths) + np.arange(lengths.sum())
            values = np.array(v[at])
        else:
            lengths, values = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return counts, values, lengths


def text_column(texts):
    """A list of str as the engine gives a text column (groups of
    ``_asys.grouped_durations``): the UTF-8 bytes one after the other
    (surrogateescape: bytes that were not UTF-8 come back) and where each
    starts, n + 1 offsets."""
    data = [t.encode("utf-8", "surrogateescape") for t in texts]
    offsets = np.zeros(len(data) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(d) for d in data], dtype=np.int64) if data else []
    return b"".join(data), offsets


def pooled(columns):
    """Text columns given as lists of str made a pool and ids
    (_asys.grouped_durations' form): the distinct texts once, in order of
    first appearance, and per column each group's id (uint32)."""
    seen = {}
    ids = [np.array([seen.setdefault(t, len(seen)) for t in column], dtype=np.uint32) for column in columns]
    return text_column(list(seen)), ids


def renumbered(summary, pids=(), devices=(), time_shift=0, kernel_row_shift=0):
    """A report's summary with its id columns renumbered as asys merge
    renumbers the report's ids (a new list of columns; the rest shared)."""
    if not summary:  # a report without the rule's data
        return summary
    ids = summary["ids"]
    if ids and (pids or devices or time_shift or kernel_row_shift):
        ids = _asys.renumber_ids(list(zip(summary["id_kinds"], ids)), list(pids), list(devices), time_shift,
                                 kernel_row_shift)
    return dict(summary, ids=ids)


def _remove(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass

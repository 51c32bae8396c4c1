"""The groups of many reports merged, as columns, and their statistics
exactly as the engine computes them for one report (core/analysis/stats.cc):
integer nanoseconds truncated toward zero, the population standard deviation
floor(sqrt(n*Q - T^2) / n) in integers, the median of an even count the
truncated mean of the two middle values.

Every per-group operation is a NumPy column operation in int64 (checked:
totals that could leave 64 bits are refused, as the engine could not hold
them either) or, for the 192-bit sums of squares and the StdDev, the
engine's own integer code (``_asys.merged_stddev``)."""

import numpy as np

from .. import _asys
from ..report import AsysError
from . import wire
from .background import in_thread
from .selection import Targets, bucket_keys, drive, join_answers, narrow_by_histogram, selection_rounds

_INT64_SAFE = float(2**63 - 2**11)
# Below this a group's |total| bound (count x its largest |value|) leaves
# no doubt: its sum as a double cannot reach _INT64_SAFE.
_INT64_NEAR = float(2**62)


def _div(a, b):
    """a / b truncated toward zero (C++ division), int64 columns, b > 0."""
    q = a // b
    return q + ((q < 0) & (q * b != a))


class Merged:
    """Groups with equal keys across reports made one: ``key_ids``
    (columns), ``text_columns`` (per text column its distinct texts as
    bytes and offsets, and each group's code; ``key_texts`` as str),
    ``count``, ``total``, ``min``, ``max``, the sum
    of squares as six 32-bit limbs summed (``limbs``), the rule's ``sums``,
    and for each report where its groups went (``where[r][local] = merged``)."""

    def __init__(self, summaries, rank_texts=False):
        """``rank_texts``: each distinct text's rank in byte order made in
        a thread (``text_ranks()`` waits for it: None without texts), while
        the rest of the merge goes on, for the summary order."""
        self.id_kinds = summaries[0]["id_kinds"]
        self.text_ranks = lambda: None
        sizes = [len(s["count"]) for s in summaries]
        cat = lambda name: np.concatenate([s[name] for s in summaries])  # noqa: E731
        keys = [np.concatenate([s["ids"][c] for s in summaries]).astype(np.int64)
                for c in range(len(self.id_kinds))]
        # Texts as codes (equal texts, equal codes), in C++ from each
        # report's pool of distinct texts (bytes and offsets, each text
        # once): no Python str a group, one hash a distinct text of a
        # report. A column's codes are the pool's; the sort key numbers
        # them in order of first appearance in the column, as each column
        # was factorized apart before (the merged groups' order unchanged).
        codes = []
        if summaries[0]["texts"]:
            pool_codes, blob, offsets = _asys.factorize_texts([s["pool"] for s in summaries])
            if rank_texts:
                # C++ without the GIL, on the core the merge leaves free.
                self.text_ranks = in_thread("asys-fleet-ranks", _asys.text_ranks, blob, offsets)
            ends = np.cumsum([len(s["pool"][1]) - 1 for s in summaries])
            per_report = np.split(pool_codes, ends[:-1])
            for c in range(len(summaries[0]["texts"])):
                column = np.concatenate([own[np.asarray(s["texts"][c], dtype=np.int64)]
                                         for own, s in zip(per_report, summaries)]).astype(np.int64)
                codes.append(column)
                keys.append(_first_appearance(column))
        n = sum(sizes)
        if keys:
            order = _key_order(keys)
            new = np.ones(n, dtype=bool)
            if n:
                new[1:] = np.any([np.diff(k[order]) != 0 for k in keys], axis=0)
        else:  # no keys: one group
            order, new = np.arange(n), np.zeros(n, dtype=bool)
            if n:
                new[0] = True
        starts = np.flatnonzero(new)
        merged_of = np.empty(n, dtype=np.int64)
        merged_of[order] = np.cumsum(new) - 1
        bounds = np.concatenate([[0], np.cumsum(sizes)])
        self.where = [merged_of[bounds[r]:bounds[r + 1]] for r in range(len(summaries))]
        first = order[starts]  # a row of each merged group
        self.key_ids = [k[first] for k in keys[:len(self.id_kinds)]]
        # Per text column: the distinct texts and each merged group's code.
        self.text_columns = [(blob, offsets, column[first]) for column in codes]
        self.size = len(starts)

        seg = _Segments(order, starts, n)
        add = seg.add
        count = cat("count")
        self.count = add(count)
        total = cat("total")
        self.total = add(total)
        some = count > 0
        lo = np.where(some, cat("min"), np.iinfo(np.int64).max)
        hi = np.where(some, cat("max"), np.iinfo(np.int64).min)
        self.min = seg.least(lo)
        self.max = seg.most(hi)
        empty = self.count == 0
        self.min[empty] = 0
        self.max[empty] = 0
        # A merged total beyond int64 (as a double, as the engine's own sum
        # would leave it): |total| <= count * max(|min|, |max|), so only the
        # groups where that bound reaches 2^62 are added again as doubles,
        # in the same order as all of them were before.
        if n:
            bound = np.maximum(np.abs(self.min.astype(np.float64)), np.abs(self.max.astype(np.float64))) * self.count
            if np.any(bound >= _INT64_NEAR):
                if np.any(np.abs(seg.add_float(total.astype(np.float64), bound >= _INT64_NEAR)) >= _INT64_SAFE):
                    raise AsysError("a merged group's total leaves 64-bit integers")
        # 192-bit sums of squares as 32-bit limbs: each limb's sum stays far
        # inside int64 (2^32 a report, fewer than 2^31 reports).
        self.limbs = []
        for w in range(3):
            word = np.concatenate([s["sumsq"][w] for s in summaries]).astype(np.uint64, copy=False)
            for half in (word & np.uint64(0xFFFFFFFF), word >> np.uint64(32)):
                self.limbs.append(add(half.view(np.int64)))  # below 2^32: the same value
        # Per report, what its fixed-bucket counts are made of (its
        # histogram of the groups of three values or more, and the count,
        # min and max that give the others'), where every report sent one.
        self._buckets = None
        if all(s.get("hist") is not None for s in summaries):
            self._buckets = [(s["hist"], s["count"], s["min"], s["max"]) for s in summaries]
        # Per report its groups' count, min and max; and per merged group the
        # most values one report has of it (known_values: a group with at
        # most two in every report has its values known here).
        self._extremes = [(s["count"], s["min"], s["max"]) for s in summaries]
        self.most_in_a_report = seg.most(count)
        self.sums = []
        for c in range(len(summaries[0]["sums"])):
            column = np.concatenate([s["sums"][c] for s in summaries]).astype(np.int64)
            self.sums.append(add(column))
            if n and np.any(np.abs(seg.add_float(column.astype(np.float64))) >= _INT64_SAFE):
                raise AsysError("a merged group's sum leaves 64-bit integers")

    def bucket_counts(self, wanted):
        """The fixed-bucket counts (selection.histogram) of the merged
        groups ``wanted`` (a bool column), all reports added: columns
        (group, bucket key, count) sorted by group then key, or None when a
        report sent none."""
        if self._buckets is None:
            return None
        groups, keys, counts, few_groups, few_values = [], [], [], [], []
        for where, ((hg, hk, hc), count, lo, hi) in zip(self.where, self._buckets):
            merged = where[hg]
            pick = wanted[merged]
            groups.append(merged[pick])
            keys.append(hk[pick])
            counts.append(hc[pick])
            # A group of one or two values: they are its min and max.
            asked = wanted[where]
            one_or_two = asked & ((count == 1) | (count == 2))
            two = asked & (count == 2)
            few_groups += [where[one_or_two], where[two]]
            few_values += [lo[one_or_two], hi[two]]
        values = np.concatenate(few_values) if few_values else np.zeros(0, dtype=np.int64)
        groups.append(np.concatenate(few_groups) if few_groups else np.zeros(0, dtype=np.int64))
        keys.append(bucket_keys(values))
        counts.append(np.ones(len(values), dtype=np.int64))
        group = np.concatenate(groups)
        key = np.concatenate(keys)
        count = np.concatenate(counts).astype(np.int64)
        if not len(group):
            return group, key, count
        # One sort of (group, key + 1) as one int64: keys are below 2^12.
        both = (group << 20) | (key + 1)
        order = np.argsort(both, kind="stable")
        both = both[order]
        new = np.ones(len(both), dtype=bool)
        new[1:] = both[1:] != both[:-1]
        at = np.flatnonzero(new)
        return both[at] >> 20, (both[at] & ((1 << 20) - 1)) - 1, np.add.reduceat(count[order], at)

    def known_values(self, wanted):
        """The values of the merged groups ``wanted`` (a bool column) whose
        every report has at most two of them (its min, and its max if two),
        as columns (group, value) sorted by group, then value."""
        groups, values = [], []
        for where, (count, lo, hi) in zip(self.where, self._extremes):
            pick = wanted[where]
            some = pick & (count >= 1)
            two = pick & (count == 2)
            groups += [where[some], where[two]]
            values += [lo[some], hi[two]]
        group = np.concatenate(groups).astype(np.int64, copy=False)
        value = np.concatenate(values).astype(np.int64, copy=False)
        order = np.lexsort((value, group))
        return group[order], value[order]

    @property
    def key_texts(self):
        """The text columns as lists of str (tests, messages): made when asked."""
        return [text_list(blob, offsets, codes) for blob, offsets, codes in self.text_columns]

    def key_of(self, g):
        """Merged group g's key as texts, for a message."""
        return [str(c[g]) for c in self.key_ids] + [text_list(blob, offsets, codes[g:g + 1])[0]
                                                     for blob, offsets, codes in self.text_columns]


class _Segments:
    """Sums, minima and maxima of the rows of each merged group: rows
    ``order`` (the key sort), the groups starting at ``starts``. Most
    merged groups of a summary are one row (hgtx_sum on the bench's 32
    ranks: 338 k groups of 386 k rows): a group's first row is read
    straight from the column (one gather, not the whole column put in key
    order first), and only the groups of two rows or more are reduced, over
    their own rows (``np.add.reduceat`` in int64 wraps modulo 2^64 as a
    running sum does, so a group's sum is exact whenever it fits in int64,
    which the merge checks)."""

    def __init__(self, order, starts, n):
        self.order, self.starts, self.n = order, starts, n
        self.last = np.empty(len(starts), dtype=np.int64)  # each group's last row (in order)
        if len(starts):
            self.last[:-1] = starts[1:] - 1
            self.last[-1] = n - 1
        self.first = order[starts]  # each group's first row, as an index into the columns
        self.several = np.flatnonzero(self.last > starts)  # the groups of two rows or more
        if len(self.several):
            rows, self.row_starts = self._rows_of(self.several)
            self.several_rows = order[rows]  # their rows, as indices into the columns

    def _rows_of(self, groups):
        """The rows (positions in ``order``) of the groups at indices
        ``groups``, in order, and where each group starts among them."""
        size = self.last[groups] - self.starts[groups] + 1
        rows = np.repeat(self.starts[groups] - (np.cumsum(size) - size), size) + \
            np.arange(int(size.sum()), dtype=np.int64)
        return rows, np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)

    def _reduce(self, column, ufunc):
        if not self.n:
            return column[:0]
        out = column[self.first].astype(np.int64, copy=False)
        if len(self.several):
            out[self.several] = ufunc.reduceat(column[self.several_rows], self.row_starts, dtype=np.int64)
        return out

    def add(self, column):
        return self._reduce(column, np.add)

    def least(self, column):
        return self._reduce(column, np.minimum)

    def most(self, column):
        return self._reduce(column, np.maximum)

    def add_float(self, column, groups=None):
        """Sums of a float64 column as np.add.reduceat makes them (the same
        additions in the same order), of every group or of those ``groups``
        (a bool column)."""
        ordered = column[self.order]
        if groups is None:
            return np.add.reduceat(ordered, self.starts)
        rows, row_starts = self._rows_of(np.flatnonzero(groups))
        return np.add.reduceat(ordered[rows], row_starts)


def _key_order(keys):
    """np.lexsort(keys[::-1]) (stable: the first key decides first): where
    the keys' ranges multiplied fit 63 bits, as one stable argsort of the
    keys packed into one int64 (a sort, not one a key)."""
    if len(keys) > 1 and len(keys[0]):
        lows = [int(k.min()) for k in keys]
        spans = [int(k.max()) - lo + 1 for k, lo in zip(keys, lows)]
        size = 1
        for span in spans:
            size *= span
        if size < 2**63:
            packed = np.zeros(len(keys[0]), dtype=np.int64)
            for k, lo, span in zip(keys, lows, spans):
                packed *= span
                packed += k - lo
            return np.argsort(packed, kind="stable")
    return np.lexsort(keys[::-1])


def _first_appearance(codes):
    """Codes renumbered 0, 1, ... in order of their first appearance."""
    if not len(codes):
        return codes
    if hasattr(_asys, "first_appearance") and codes.min() >= 0:
        return _asys.first_appearance(codes)
    distinct, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(distinct), dtype=np.int64)
    return rank[inverse]


def text_list(blob, offsets, codes):
    """The texts of ``codes`` in a distinct-text column (blob, offsets) as
    str, bytes that are not UTF-8 kept with surrogateescape."""
    return [blob[offsets[k]:offsets[k + 1]].decode("utf-8", "surrogateescape") for k in np.asarray(codes).tolist()]


def median_targets(m):
    """The middle ranks of each merged group of three values or more, as
    target columns (a group of one or two values has them as its min and
    max: hgtx_sum's 338 k merged groups on the bench's ranks are 2.7 k
    targets, not 359 k)."""
    n = m.count
    some = np.flatnonzero(n > 2)
    odd = some[n[some] % 2 == 1]
    even = some[n[some] % 2 == 0]
    group = np.concatenate([odd, even, even])
    rank = np.concatenate([n[odd] // 2, n[even] // 2 - 1, n[even] // 2])
    return Targets(group, rank, m.min[group], m.max[group], n[group]), len(odd), len(even)


def settle_known(m, targets):
    """The targets to be fetched whose group has at most two values in
    every report, settled here from the reports' min and max (which are
    those values), without asking: on the bench's 32 ranks 28 k of
    hgtx_sum's targets (names of a few instances on each rank), the bulk of
    its median round's questions and of its answers (docs/fleet.md, "What
    the run's time goes to", item 37)."""
    open_ = np.flatnonzero(~targets.done & targets.fetch)
    open_ = open_[m.most_in_a_report[targets.group[open_]] <= 2]
    if not len(open_):
        return
    wanted = np.zeros(m.size, dtype=bool)
    wanted[targets.group[open_]] = True
    group, value = m.known_values(wanted)
    first = np.searchsorted(group, targets.group[open_])  # each group's smallest value
    targets.value[open_] = value[first + targets.rank[open_]]
    targets.done[open_] = True


def median_rounds(m):
    """Each merged group's median (0 for an empty group), and the rounds, as
    a generator of rounds (selection.selection_rounds)."""
    targets, odd, even = median_targets(m)
    settle_known(m, targets)
    # The first counting round from the fixed buckets the reports counted
    # at their load: no round trip for it.
    counting = targets.group[~targets.done & ~targets.fetch]
    if len(counting):
        wanted = np.zeros(m.size, dtype=bool)
        wanted[counting] = True
        buckets = m.bucket_counts(wanted)
        if buckets is not None:
            narrow_by_histogram(targets, *buckets)
    rounds = yield from selection_rounds(targets)
    med = np.zeros(m.size, dtype=np.int64)
    v = targets.value
    med[targets.group[:odd]] = v[:odd]
    one = np.flatnonzero(m.count == 1)
    med[one] = m.min[one]
    # The even groups: a group of two values' middle ones are its min and max.
    two = np.flatnonzero(m.count == 2)
    groups = np.concatenate([two, targets.group[odd:odd + even]])
    a = np.concatenate([m.min[two], v[odd:odd + even]])
    b = np.concatenate([m.max[two], v[odd + even:]])
    if np.all((np.abs(a) < 2**62) & (np.abs(b) < 2**62)):
        med[groups] = _div(a + b, np.int64(2))
    else:  # two middle values near 2^63: their sum in Python integers
        s = [int(x) + int(y) for x, y in zip(a.tolist(), b.tolist())]
        med[groups] = [abs(x) // 2 * (1 if x >= 0 else -1) for x in s]
    return med, rounds


def merged_statistics(m, ask):
    """The statistics columns [total, count, avg, med, min, max, stddev],
    the rounds the medians took, and the merged groups whose StdDev is the
    engine's long-double one (past its integers)."""
    return drive(statistics_rounds(m), ask)


def statistics_rounds(m):
    """merged_statistics as a generator of median rounds (selection.selection_rounds)."""
    med, rounds = yield from median_rounds(m)
    avg = np.where(m.count > 0, _div(m.total, np.maximum(m.count, 1)), 0)
    stddev, approximate = _asys.merged_stddev(m.count, m.total, m.min, m.max, m.limbs)
    return [m.total, m.count, avg, med, m.min, m.max, np.asarray(stddev)], rounds, np.flatnonzero(approximate)


def asker(merged, answer_all):
    """select's ask over the reports of ``merged``: each report is asked
    only about the groups it has, by its own group numbers.
    ``answer_all(requests)`` takes (report index, queries) pairs and returns
    the reports' answers (ReportState.answer) in that order."""
    split = Asker(merged)

    def ask(count_queries, fetch_queries):
        asked, requests = split.requests(count_queries, fetch_queries)
        return split.combine(count_queries, fetch_queries, asked, answer_all(requests))

    return ask


class Asker:
    """A round's queries on the merged groups split into each report's own
    (``requests``), and the reports' answers summed back (``combine``): in
    two steps, so that the rounds of many rules can go out together
    (run.py: one task a report a round for every rule)."""

    def __init__(self, merged, asked=None):
        """``asked``: the merged groups any round may ask about (a bool
        column; None: all), the only ones looked up (hgtx_sum on the
        bench's ranks: 2.7 k of 338 k groups; each report's 12 k groups
        were sorted)."""
        # Per report: its merged group numbers sorted, and its own number of each.
        self.local = []
        for where in merged.where:
            own = np.arange(len(where)) if asked is None else np.flatnonzero(asked[where])
            order = np.argsort(where[own], kind="stable")
            self.local.append((where[own[order]], own[order]))

    @staticmethod
    def _pick(merged_groups, sorted_groups):
        at = np.searchsorted(sorted_groups, merged_groups)
        hit = at < len(sorted_groups)
        hit[hit] = sorted_groups[at[hit]] == merged_groups[hit]
        return np.flatnonzero(hit), at[hit]

    def requests(self, count_queries, fetch_queries):
        """(asked, requests): requests are (report index, queries on its own
        group numbers) pairs, only for the reports that have a group asked."""
        cg, clo, width, nb, chi = count_queries
        fg, flo, fhi = fetch_queries
        asked, requests = [], []
        for r, (sorted_groups, own) in enumerate(self.local):
            cq, cat = self._pick(cg, sorted_groups)
            fq, fat = self._pick(fg, sorted_groups)
            if len(cq) == 0 and len(fq) == 0:
                continue
            asked.append((cq, fq))
            requests.append((r, ((own[cat], clo[cq], width[cq], nb[cq], chi[cq]), (own[fat], flo[fq], fhi[fq]))))
        return asked, requests

    @staticmethod
    def combine(count_queries, fetch_queries, asked, answers):
        """The reports' answers (in the requests' order) as select's ask
        returns them: counts summed, fetched values joined. A report's
        counts: a column, one query's buckets after the other, or
        wire.sparse_counts of it (the buckets that hold a value)."""
        nb = count_queries[3]
        first = np.concatenate([[0], np.cumsum(nb)]).astype(np.int64)
        counts = np.zeros(int(first[-1]), dtype=np.int64)
        fetched = []
        for (cq, fq), (c, values, lengths) in zip(asked, answers):
            if len(cq):
                # This report's buckets among all the queries' buckets.
                own_first = np.concatenate([[0], np.cumsum(nb[cq])[:-1]])
                if isinstance(c, tuple):
                    size, at, n = c
                    if size != int(nb[cq].sum()):
                        raise AsysError("a report answered %d bucket counts for %d buckets" % (size, nb[cq].sum()))
                    at = wire.widen(at).astype(np.int64, copy=False)
                    q = np.searchsorted(own_first, at, side="right") - 1
                    counts[first[cq][q] + (at - own_first[q])] += wire.widen(n)  # positions distinct
                else:
                    counts[np.repeat(first[cq] - own_first, nb[cq]) + np.arange(len(c))] += c
            fetched.append((fq, values, lengths))
        values, starts = join_answers(fetched, len(fetch_queries[0]))
        return counts, values, starts

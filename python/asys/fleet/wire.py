"""A report's summary (ReportState.summary) as it crosses to the client:
fewer and smaller integers, the same numbers once expanded.

- **What the count implies is not sent.** A group of one value has
  total = min = max and sum of squares min^2; a group of two values has
  max sent, total = min + max and sum of squares min^2 + max^2. Only
  groups of three values or more send their total and their sum of
  squares (three 64-bit words), only groups of two or more their max.
  (hgtx_sum's groups are a distinct range name each: most have one or two
  instances on a rank report.)
- **Each integer column in the narrowest type that holds it** (int8 to
  int64, uint8 to uint64), its type restored on arrival.
- **The pool's texts by their lengths**, not their offsets (a byte or
  two a text, not eight).
- **Text ids as differences** from the previous group's: a report's pool
  numbers its texts in order of first appearance, so that a column of
  distinct names is 1, 1, 1, ... which the compression takes to almost
  nothing.
- **The fixed-bucket counts** (``hist``: group, bucket key, count of the
  groups of three values or more; selection.histogram) with the group
  numbers as differences.

``compact`` runs on the worker (tasks.summaries, through ``to_send``),
``expand`` on the client (run.py) as each summary arrives; tests check that
expand(compact(s)) equals s, array for array and type for type. A summary
of fewer than ``COMPACT_FROM`` groups crosses as it is (``to_send``).

A median round's bucket counts cross as ``sparse_counts``: only the
buckets that hold a value, each its position and count in the narrowest
types (``merge.Asker.combine`` adds them where they belong).
"""

import numpy as np

_KINDS = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)


def narrow(a):
    """(original dtype, the array in the narrowest integer type that holds
    its values)."""
    a = np.asarray(a)
    if a.dtype.kind not in "iu" or not len(a):
        return (a.dtype.str, a)
    lo, hi = int(a.min()), int(a.max())
    for kind in _KINDS:
        info = np.iinfo(kind)
        if info.min <= lo and hi <= info.max:
            return (a.dtype.str, a.astype(kind) if kind != a.dtype else a)
    return (a.dtype.str, a)


def widen(n):
    dtype, a = n
    return a.astype(np.dtype(dtype)) if a.dtype != np.dtype(dtype) else a


def _delta(codes):
    codes = np.asarray(codes).astype(np.int64)
    out = np.empty(len(codes), dtype=np.int64)
    if len(codes):
        out[0] = codes[0]
        np.subtract(codes[1:], codes[:-1], out=out[1:])
    return out


def compact(summary):
    """A summary as ReportState.summary makes it, made small to send."""
    if not summary or "count" not in summary:
        return summary
    count = np.asarray(summary["count"])
    two, three = count >= 2, count >= 3
    out = dict(summary)
    out["compact"] = 1
    out["texts"] = [(np.asarray(c).dtype.str, narrow(_delta(c))) for c in summary["texts"]]
    blob, offsets = summary["pool"]
    out["pool"] = (blob, narrow(np.diff(np.asarray(offsets))), np.asarray(offsets).dtype.str)
    out["ids"] = [narrow(c) for c in summary["ids"]]
    out["sums"] = [narrow(c) for c in summary["sums"]]
    out["count"] = narrow(count)
    out["min"] = narrow(summary["min"])
    out["max"] = narrow(np.asarray(summary["max"])[two])
    out["total"] = narrow(np.asarray(summary["total"])[three])
    out["sumsq"] = [narrow(np.asarray(w)[three]) for w in summary["sumsq"]]
    if summary.get("hist") is not None:
        group, key, n = summary["hist"]
        out["hist"] = (narrow(_delta(group)), narrow(key), narrow(n))
    return out


# A summary of fewer groups than this crosses as it is: compacting it saves
# a few hundred bytes, and expanding it costs the client ~40 NumPy calls
# whatever its size. The five kernel, API, OS runtime and memory summaries
# of the bench's rank reports (4-46 groups each) took 0.2 ms each to
# expand, 33 ms of the client's CPU for their 160 summaries, during the
# loads, where two workers share the two cores with the client (a third of
# its 0.1 s of work on the heads; docs/fleet.md, "What the run's time goes
# to", item 35).
COMPACT_FROM = 256


def to_send(summary):
    """The summary as it crosses: compact() when it has COMPACT_FROM groups
    or more, else as it is (expand() gives it back either way)."""
    if summary and "count" in summary and len(summary["count"]) >= COMPACT_FROM:
        return compact(summary)
    return summary


def _square_words(x):
    """x^2 as (low, high) 64-bit words, x int64 (|x| <= 2^63): exact, in
    uint64 arithmetic on 32-bit halves."""
    a = np.abs(x.astype(np.int64)).view(np.uint64)  # |-2^63| wraps to -2^63: 2^63 as uint64
    h, l = a >> np.uint64(32), a & np.uint64(0xFFFFFFFF)
    ll, p = l * l, h * l  # each < 2^64
    low = ll + (p << np.uint64(33))
    carry = (low < ll).astype(np.uint64)
    high = h * h + (p >> np.uint64(31)) + carry
    return low, high


def _add_words(a, b):
    """Two 192-bit sums (three words each) added, word by word with carries."""
    out, carry = [], np.zeros(len(a[0]), dtype=np.uint64)
    for x, y in zip(a, b):
        s = x + y
        c1 = s < x
        t = s + carry
        c2 = t < s
        out.append(t)
        carry = (c1 | c2).astype(np.uint64)
    return out


def expand(c):
    """compact's summary as ReportState.summary made it."""
    if not c or not c.get("compact"):
        return c
    out = dict(c)
    del out["compact"]
    out["texts"] = [np.cumsum(widen(n), dtype=np.int64).astype(np.dtype(dtype)) for dtype, n in c["texts"]]
    blob, lengths, dtype = c["pool"]
    offsets = np.zeros(len(lengths[1]) + 1, dtype=np.dtype(dtype))
    np.cumsum(widen(lengths), out=offsets[1:])
    out["pool"] = (blob, offsets)
    out["ids"] = [widen(n) for n in c["ids"]]
    out["sums"] = [widen(n) for n in c["sums"]]
    count = widen(c["count"])
    lo = widen(c["min"])
    two, three = count >= 2, count >= 3
    hi = lo.copy()
    hi[two] = widen(c["max"])
    total = np.where(count == 1, lo, 0).astype(lo.dtype)
    pair = count == 2
    total[pair] = lo[pair] + hi[pair]
    total[three] = widen(c["total"])
    words = [np.zeros(len(count), dtype=np.uint64) for _ in range(3)]
    one_or_two = (count == 1) | pair
    low, high = _square_words(lo[one_or_two])
    first = [low, high, np.zeros(len(low), dtype=np.uint64)]
    low2, high2 = _square_words(hi[one_or_two])
    second = [np.where(pair[one_or_two], w, np.uint64(0)) for w in (low2, high2, np.zeros(len(low2), np.uint64))]
    for w, v in zip(words, _add_words(first, second)):
        w[one_or_two] = v
    for w, n in zip(words, c["sumsq"]):
        w[three] = widen(n)
    out["count"], out["min"], out["max"], out["total"] = count, lo, hi, total
    out["sumsq"] = tuple(words)
    if c.get("hist") is not None:
        group, key, n = c["hist"]
        out["hist"] = (np.cumsum(widen(group), dtype=np.int64), widen(key), widen(n))
    return out


def sparse_counts(counts):
    """A report's bucket counts of one round (one count query's buckets
    after the other) as they cross: how many buckets, and the positions and
    counts of those that hold a value, each narrowed. A count query's range
    is the fixed bucket that held its rank (2^-5 of the value wide), cut
    into up to 4096 buckets, and a report has a few hundred values in it:
    on the bench's 32 ranks round 1 sent 21 MB of counts, almost all zeros,
    through the scheduler to the client (docs/fleet.md, "What the run's
    time goes to", item 30)."""
    counts = np.asarray(counts)
    at = np.flatnonzero(counts)
    return len(counts), narrow(at), narrow(counts[at])


def dense_counts(sparse):
    """sparse_counts' counts as the report made them (int64; tests)."""
    size, at, n = sparse
    out = np.zeros(size, dtype=np.int64)
    out[widen(at)] = widen(n)
    return out

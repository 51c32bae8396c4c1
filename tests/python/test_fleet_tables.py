"""The fleet's merged duration summaries, made faster on the run's serial
path (docs/fleet.md, "What the run's time goes to"): their row order made
apart (``_asys.summary_order``, in a thread while the medians' rounds go
on) and their CSV written in parts at once (``Table.write(fmt, threads)``)
must give the bytes of the table made and written in one piece."""

import numpy as np
import pytest

from asys import _asys


def _texts(column):
    """A text column as merged_table takes it: distinct texts, offsets, codes."""
    distinct, codes = np.unique(np.array(column, dtype=object), return_inverse=True)
    blob = b"".join(t.encode() for t in distinct)
    offsets = np.concatenate([[0], np.cumsum([len(t.encode()) for t in distinct])]).astype(np.int64)
    return blob, offsets, codes.astype(np.int64)


def _hgtx_sum_groups(n, seed=3):
    """n merged hgtx_sum groups: many tied totals (as the bench's, most
    names one range), names not in order, two styles."""
    rng = np.random.default_rng(seed)
    count = rng.integers(1, 4, n)
    total = rng.integers(1, 50, n) * 1000  # few distinct totals: the texts decide
    lo = total // count
    stats = [total, count, total // count, lo, lo, lo, np.zeros(n, np.int64)]
    names = ["op_%07d, sizes = [%d]" % (k, k % 97) for k in rng.permutation(n)]
    styles = ["PushPop" if k % 3 else "StartEnd" for k in range(n)]
    return [np.asarray(s, dtype=np.int64) for s in stats], [_texts(styles), _texts(names)]


@pytest.mark.parametrize("n", [0, 1, 5000, 200_001])
def test_summary_order_and_parallel_write_give_the_same_bytes(n):
    stats, texts = _hgtx_sum_groups(n)
    whole = _asys.merged_table("hgtx_sum", [], stats, texts, [], [])
    order = _asys.summary_order(texts, stats[0])
    given = _asys.merged_table("hgtx_sum", [], stats, texts, [], [], order=order)
    reference = whole.write("csv")
    assert given.write("csv") == reference
    for threads in (2, 3, 8):
        assert given.write("csv", threads) == reference
        assert whole.write("csv", threads) == reference
    # Other formats are written whole, whatever the threads.
    assert given.write("json", 2) == whole.write("json")
    assert given.write("column", 2) == whole.write("column")
    if n:
        # rows=N cuts the ordered rows as before.
        cut = _asys.merged_table("hgtx_sum", ["rows=7"], stats, texts, [], [], order=order)
        assert cut.write("csv", 2) == _asys.merged_table("hgtx_sum", ["rows=7"], stats, texts, [], []).write("csv")


def _written_to(table, fmt, threads, tmp_path):
    path = tmp_path / ("out-%s-%d" % (fmt, threads))
    with open(path, "wb") as f:
        f.write(b"before\n")
        f.flush()
        table.write_to(fmt, f.fileno(), threads)
    return path.read_bytes()


@pytest.mark.parametrize("n", [0, 5000, 200_001])
def test_written_to_a_file_in_pieces_gives_the_same_bytes(n, tmp_path):
    """Table.write_to: the pieces (16 k rows each, formatted on threads and
    written in order as they are made) after what the file had, the bytes
    of one write; formats other than CSV written whole."""
    stats, texts = _hgtx_sum_groups(n)
    order = _asys.summary_order(texts, stats[0])
    given = _asys.merged_table("hgtx_sum", [], stats, texts, [], [], order=order)
    reference = given.write("csv")
    for threads in (1, 2, 3, 8):
        assert _written_to(given, "csv", threads, tmp_path) == b"before\n" + reference
    assert _written_to(given, "json", 2, tmp_path) == b"before\n" + given.write("json")


def test_a_write_that_fails_raises_oserror(tmp_path):
    stats, texts = _hgtx_sum_groups(200_001)
    table = _asys.merged_table("hgtx_sum", [], stats, texts, [], [])
    with open(tmp_path / "f", "wb") as f:
        fd = f.fileno()
    with pytest.raises(OSError):
        table.write_to("csv", fd, 2)  # closed
    import os
    r, w = os.pipe()
    os.close(r)
    import signal
    old = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        with pytest.raises(OSError):
            table.write_to("csv", w, 2)  # no reader: EPIPE, the threads stopped and joined
    finally:
        signal.signal(signal.SIGPIPE, old)
        os.close(w)


def _shared_texts(columns):
    """Text columns whose codes are into one distinct-text column, as the
    fleet's merge makes them (factorize_texts over every column)."""
    from asys.fleet.state import text_column
    flat = [t for column in columns for t in column]
    codes, blob, offsets = _asys.factorize_texts([text_column(flat)])
    n = len(columns[0])
    return [(blob, offsets, codes[c * n:(c + 1) * n]) for c in range(len(columns))], blob, offsets


@pytest.mark.parametrize("columns", [1, 2, 3])
def test_summary_order_by_text_ranks_is_the_order_by_texts(columns):
    """summary_order with text_ranks (integers, two ranks a word for up to
    two text columns): the order of the texts themselves, bytes that are
    not UTF-8 and prefixes included; groups equal on every key fall back to
    the texts' order."""
    rng = np.random.default_rng(5)
    n = 20_000
    words = ["op_%d" % k for k in range(3000)] + ["", "op_", "\udcff", "\xe9t\xe9", "Op"]
    texts = [[words[k] for k in rng.integers(0, len(words), n)] for _ in range(columns)]
    total = rng.integers(0, 40, n).astype(np.int64) * 10
    cols, blob, offsets = _shared_texts(texts)
    ranks = _asys.text_ranks(blob, offsets)
    assert sorted(ranks.tolist()) == list(range(len(ranks)))
    by_texts = _asys.summary_order(cols, total)
    assert _asys.summary_order(cols, total, ranks).tolist() == by_texts.tolist()
    # Distinct keys (as merged groups have): the one order there is.
    keys = {(-t, *[texts[c][g].encode("utf-8", "surrogateescape") for c in reversed(range(columns))]): g
            for g, t in enumerate(total.tolist())}
    distinct = sorted(keys.values())
    cols, blob, offsets = _shared_texts([[texts[c][g] for g in distinct] for c in range(columns)])
    expected = [distinct.index(g) for _k, g in sorted(keys.items())]
    got = _asys.summary_order(cols, total[distinct], _asys.text_ranks(blob, offsets))
    assert got.tolist() == expected


def test_an_order_that_is_not_one_is_refused():
    stats, texts = _hgtx_sum_groups(10)
    with pytest.raises(_asys.AsysError):
        _asys.merged_table("hgtx_sum", [], stats, texts, [], [], order=np.zeros(10, np.int64))
    with pytest.raises(_asys.AsysError):
        _asys.merged_table("hgtx_sum", [], stats, texts, [], [], order=np.arange(9, dtype=np.int64))


def test_a_summary_table_keeps_the_texts_it_reads_alive():
    """A duration summary's merged table reads its names in the bytes it
    was given, not a copy: the texts stay alive as long as the table (and
    no longer), and the table's CSV names every group as given, after the
    caller dropped its own references and the memory was used again."""
    import gc
    import weakref

    class Texts(list):  # a list that can be watched
        pass

    stats, columns = _hgtx_sum_groups(3000, seed=5)
    expected = _asys.merged_table("hgtx_sum", [], stats, columns, [], []).write("csv")
    texts = Texts((bytes(bytearray(blob)), offsets, codes) for blob, offsets, codes in columns)
    watched = weakref.ref(texts)
    table = _asys.merged_table("hgtx_sum", [], stats, texts, [], [])
    del texts
    gc.collect()
    assert watched() is not None
    litter = [bytes(bytearray(len(b))) for b, _o, _c in columns for _ in range(20)]
    assert table.write("csv", 2) == expected
    assert b"op_0000007, sizes = [7]" in expected
    del table, litter
    gc.collect()
    assert watched() is None

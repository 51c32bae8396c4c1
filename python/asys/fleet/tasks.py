"""What runs in a worker: one task per report opens it once and makes the
states of every rule asked (and, with --per-rank, the report's own tables);
the later tasks of a run only read those states, kept in the worker's memory
as the first task's result."""

import lzma
import os
import pickle
import resource
import zlib

import numpy as np

from .. import _asys
from ..report import AsysError, MissingDataError, Report
from . import wire
from .state import ReportState

try:  # Debian's python3-lz4 (pack)
    import lz4.block as _lz4
except ImportError:
    _lz4 = None

# Fault injection for the tests (tests/python/test_fleet.py): when set to a
# path that does not exist yet, the first worker to open a report creates it
# and dies at once, as a process killed mid-task would; Dask must run the
# task again elsewhere and the answer stay exact.
DIE_ONCE = "ASYS_FLEET_FAULT_DIE_ONCE"

# A packed reply past this is packed again with LZMA (pack): issue 22's
# bound on what a report sends back per rule.
LARGE_REPLY = 1000 * 1000
LARGE_REPLY_PRESET = 0  # 0.95 MB, and no higher a peak than the load's (preset 1: +2.6 MiB)


class Missing:
    """A rule whose data the report lacks: no groups from it."""

    def __init__(self, message):
        self.message = message

    def summary(self, *plan):
        return {}

    def answer(self, count_queries, fetch_queries, sparse=False):
        raise AssertionError("a report without the rule's data is asked no round")


class Loaded:
    """One report's states by rule, its own tables, or why it could not be opened."""

    def __init__(self, path):
        self.path, self.states, self.tables, self.error = path, {}, {}, None
        self.summarized = False  # its summaries made (once: the states shrink after)
        self.packed = None  # they, packed, until the head sends them
        # pids, devices, epochOffset, HGGC_KERNEL rows: as asys merge finds them (its survey)
        self.ids = ([], [], None, 0)


def _die_once():
    marker = os.environ.get(DIE_ONCE)
    if not marker:
        return
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)


def _spill_dir():
    """The worker's own folder, where its states keep their values."""
    try:
        from distributed import get_worker
        return get_worker().local_directory
    except (ImportError, ValueError):
        return None


# Per run (its token): this worker process's usage (usage()) before its
# first load of the run, which usage_in_run gives back at the run's end.
_RUN_START = {}


def usage():
    """This process's peak resident bytes and CPU seconds (user + system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_maxrss * 1024, own.ru_utime + own.ru_stime


def usage_in_run(run):
    """(peak bytes, CPU seconds) before this worker's first load of the run
    ``run`` (now, if it loaded none), and now."""
    now = usage()
    return _RUN_START.pop(run, now), now


def load(path, jobs, per_rank_format, run=None):
    """``jobs``: (rule, settings) pairs. ``run``: the run's token, under
    which the worker notes its usage before its first load of the run (the
    client asks for it at the end, usage_in_run: no request to the workers
    before the first load is sent). The report is opened once a rule,
    so that what the engine keeps of it for one rule (its loaded columns)
    goes before the next: on a 190 MB rank report the six duration
    summaries' load peaked 72.5 MiB above the worker's start, 79.6 with one
    open report for all, for the same CPU (docs/fleet.md, "Worker memory")."""
    if run is not None and run not in _RUN_START:
        _RUN_START[run] = usage()
    _die_once()
    loaded = Loaded(path)
    for rule, settings in jobs:
        try:
            report = Report(path)
        except AsysError as e:
            loaded.error = str(e)
            return loaded
        groups = None
        with report:
            try:
                groups = _asys.grouped_durations(report._engine, rule, *settings)
            except MissingDataError as e:
                loaded.states[rule] = Missing(str(e))
            if per_rank_format:
                try:
                    loaded.tables[rule] = report._engine.run_table(rule, *settings).write(per_rank_format)
                except MissingDataError as e:
                    loaded.tables[rule] = e
        # The state made once the report is closed: what the engine holds
        # of it (its columns and strings, 44 MiB for hgtx_sum on a 476 MB
        # rank report) is gone before the values are spilled and the
        # moments made.
        if groups is not None:
            loaded.states[rule] = ReportState.of_groups(rule, path, groups, _spill_dir())
            del groups
    try:
        loaded.ids = _asys.report_ids(path)
    except AsysError as e:
        loaded.error = str(e)
    if loaded.error is None:
        # The summaries packed now, and the states shrunk: a worker that
        # loads its next report before this one's head has run holds the
        # packed summaries (hgtx_sum on a 476 MB rank report: 2.4 MB), not
        # the unpacked keys and texts (55 MiB), beside the next load's peak.
        loaded.packed = summaries(loaded)
    _give_back_freed_heap()
    return loaded


def _give_back_freed_heap():
    """The C library keeps the heap a report's load freed (the engine's
    columns, freed in the task's thread): in a worker that loaded 16 rank
    reports of scale 100 it held 28 MiB more than after malloc_trim, which
    gives it back (docs/fleet.md, "Worker memory"). glibc only; elsewhere
    nothing."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def head(loaded):
    """Right after the load: the report's pids and devices (which asys
    merge may renumber), the rules it lacks data for, its warnings, its own
    tables (--per-rank) and per rule its groups as columns
    (ReportState.summary, packed; the client renumbers their ids once
    every report's head is in), or why it could not be opened."""
    if loaded.error is not None:
        return {"error": loaded.error}
    return {
        "ids": loaded.ids,
        "missing": {rule: s.message for rule, s in loaded.states.items() if isinstance(s, Missing)},
        "warnings": {rule: getattr(s, "warnings", []) for rule, s in loaded.states.items()},
        "tables": loaded.tables,
        "summaries": _sent(loaded),
    }


def _sent(loaded):
    """The packed summaries, once: the head's result is all that keeps them
    after (the client releases it once received)."""
    if loaded.packed is None:
        raise AsysError("%s: summaries sent already" % loaded.path)
    packed, loaded.packed = loaded.packed, None
    return packed


def summaries(loaded):
    """Per rule, the report's groups as columns (ReportState.summary), with
    the report's own ids."""
    # Made once: the states keep only what the rounds read afterwards. (A
    # worker that dies loses this result and the states together: Dask
    # remakes both.)
    if loaded.summarized:
        raise AsysError("%s: summarized already" % loaded.path)
    packed = {rule: pack(wire.to_send(state.summary())) for rule, state in loaded.states.items()}
    for state in loaded.states.values():
        if isinstance(state, ReportState):
            state.shrink()
    loaded.summarized = True
    return packed


def pack(obj):
    """What a report sends back, compressed: a summary's key texts and
    counts repeat a lot. LZ4 where Debian's python3-lz4 is installed, else
    zlib level 1; the first byte says which. On a rank report's hgtx_sum
    summary (2.16 MB pickled, 12 k range names): LZ4 539 KB, 7 ms to pack
    and 2 ms to unpack; zlib 361 KB, 34-60 ms and 19-44 ms. The unpacking
    is the client's, 32 times in a run, on the cores the workers share."""
    raw = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    if _lz4 is not None:
        packed = b"L" + _lz4.compress(raw)
    else:
        packed = b"Z" + zlib.compress(raw, 1)
    if len(packed) > LARGE_REPLY:
        # Past 1 MB (hgtx_sum's summary of a 190 MB rank report, 120 k
        # distinct range names of ~100 bytes: 3.19 MB with LZ4, 2.08 MB
        # with zlib): LZMA at preset 0, 0.95 MB (0.91 at preset 1), ~0.16 s
        # of the worker's CPU; the client unpacks it in ~0.05 s. The LZ4
        # attempt goes first: the worker's peak is here.
        del packed
        packed = b"X" + lzma.compress(raw, preset=LARGE_REPLY_PRESET)
    return packed


def unpack(data):
    kind, body = data[:1], memoryview(data)[1:]
    if kind == b"X":
        return pickle.loads(lzma.decompress(body))
    if kind == b"L":
        if _lz4 is None:
            raise AsysError("a worker sent LZ4 data and this client has no lz4 module (install python3-lz4)")
        return pickle.loads(_lz4.decompress(body))
    return pickle.loads(zlib.decompress(body))



def answer(loaded, rule, queries, sparse=False):
    """One median round of one rule on this report: queries are (count
    queries, fetch queries) on the report's own group numbers."""
    return loaded.states[rule].answer(*queries, sparse=sparse)


def answers(loaded, asked):
    """One median round of every rule still selecting, on this report (one
    task a report a round, whatever the rules): ``asked`` is (rule, queries)
    pairs; the answers in that order, each packed apart (its size is the
    rule's reply), the bucket counts as wire.sparse_counts."""
    out = []
    for rule, queries in asked:
        out.append(pickle.dumps(answer(loaded, rule, queries, sparse=True), protocol=pickle.HIGHEST_PROTOCOL))
    return out


def answers_of(loadeds, asked):
    """answers for several reports of one worker in one task (a round is a
    task a worker, not a task a report: run._rounds_together); ``asked``:
    their ``asked`` lists in that order, pickled."""
    return [answers(loaded, a) for loaded, a in zip(loadeds, pickle.loads(asked))]


def spans(loaded, rule, where, time_shift):
    """A leaf of a rule's span union (hgtx_ppu_proj_sum's Proj Active Time):
    this report's blocks by merged group, on the first report's clock."""
    return loaded.states[rule].merged_spans(where, time_shift)


def span_union(a, b):
    """Two parts' blocks made one union (pairwise, on the workers: the union
    crosses the reports, and only its lengths reach the client)."""
    return _asys.span_union(*(np.concatenate([x, y]) for x, y in zip(a, b)))


def span_lengths(blocks, size):
    """Per merged group, the length of its union."""
    group, start, end = blocks
    out = np.zeros(size, dtype=np.int64)
    np.add.at(out, group, end - start)
    return out

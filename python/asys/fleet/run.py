"""The fleet run on a Dask client: states per report, merged exactly, then
the table ``asys stats`` makes of all the reports merged into one, through
the engine's own row builder and writers."""

import pickle
import time
import uuid

import numpy as np

from distributed import as_completed

from .. import _asys
from ..report import AsysError
from . import tasks, wire
from .merge import Asker, Merged, statistics_rounds
from .background import in_thread
from .client_memory import Guard, available_bytes, held_bytes
from .progress import SILENT
from .refusals import check_job
from .state import renumbered

# Rules whose merged table is their own groupsTable; the others' is the
# duration summary view (merged_table), whose order is made apart.
GROUPS_TABLE = {r["name"]: r["groups_table"] for r in _asys.rules()}


class FleetResult:
    """Per rule: the merged table (``_asys.Table``), the rounds its medians
    took, and the largest answer one report sent back for it (bytes,
    pickled: its summary, or one round's answer)."""

    def __init__(self):
        self.tables, self.rounds, self.per_rank, self.warnings = {}, {}, {}, []
        self.largest_reply, self.skipped = {}, []
        # The median rounds of all rules together, and the tasks they took.
        self.median_rounds = self.round_tasks = 0
        # Worker address -> peak resident bytes, before the run (the
        # interpreter, pandas, the engine) and after it.
        self.worker_start, self.worker_peaks = {}, {}
        # Worker address -> its process's CPU seconds (user + system) before
        # the run (its start: imports, registering) and after it.
        self.worker_cpu_start, self.worker_cpu = {}, {}
        # (phase, time.monotonic()) as the run passes them, and the client
        # process's CPU seconds (all its threads) at each (--verbose).
        self.timeline, self.timeline_cpu = [], []

    def mark(self, phase):
        self.timeline.append((phase, time.monotonic()))
        self.timeline_cpu.append((phase, time.process_time()))


def _reply_size(obj):
    return len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def run(client, paths, jobs, per_rank_format=None, skip_bad=False, remote_done=None, progress=SILENT):
    """``jobs``: (rule, settings) pairs, settings as _options.run_settings
    makes them. One task per report; the states stay on the workers.
    ``remote_done()``, if given, is called once the workers have nothing
    more to do (before the merged tables are made on the client).
    ``progress``: a progress.Progress told where the run is."""
    for rule, settings in jobs:
        check_job(rule, settings)
    result = FleetResult()
    result.mark("started")
    # Each worker notes its usage at its first load of this run (tasks.load)
    # and gives it at the end: asked for here, before the loads, it was a
    # request through the scheduler to every worker, 4-12 ms on the serial
    # start of every run (docs/fleet.md, "What the run's time goes to",
    # item 36).
    token = uuid.uuid4().hex
    # client.map, not a submit per task: distributed reads the caller's
    # source for each submit call (Client._get_computation_code, 3 ms each),
    # which was a tenth of a 32-report run on the client's core.
    n = len(paths)
    loaded = client.map(tasks.load, paths, [jobs] * n, [per_rank_format] * n, [token] * n,
                        key=["asys-load-%d" % i for i in range(n)], pure=False)
    # Each report's head and summaries in one task, right after its load,
    # unpacked here as they come while the other reports still load (the
    # ids are renumbered here once all heads are known: asys merge's plan
    # needs every report's).
    heads = client.map(tasks.head, loaded, key=["asys-head-%d" % i for i in range(n)])
    index = {future.key: i for i, future in enumerate(heads)}
    arrived = [None] * n
    # What the summaries will take here, projected from the first heads: a
    # run that cannot fit stops now, not when the client runs out.
    guard = Guard(paths, available_bytes())
    for done, (future, head) in enumerate(as_completed(heads, with_results=True), 1):
        for rule, packed in head.get("summaries", {}).items():
            result.largest_reply[rule] = max(result.largest_reply.get(rule, 0), _reply_size(packed))
            head["summaries"][rule] = wire.expand(tasks.unpack(packed))
        held = {rule: held_bytes(summary) for rule, summary in head.get("summaries", {}).items()}
        held["per-rank tables"] = held_bytes(head.get("tables", {}))
        try:
            guard.add(index[future.key], held)
        except AsysError:
            client.cancel(loaded + heads)
            raise
        arrived[index[future.key]] = head
        # Received: the worker may drop it (else it kept every head it
        # sent, its packed summaries, until the run ended).
        future.release()
        progress.loaded(done)
    result.mark("every head in")
    progress.phase("merging the reports' groups")
    kept = []
    for path, future, head in zip(paths, loaded, arrived):
        if "error" in head:
            if not skip_bad:
                raise AsysError(head["error"])
            result.skipped.append((path, head["error"]))
            continue
        kept.append((path, future, head))
    if not kept:
        raise AsysError("no report could be opened")
    # The pids and devices as asys merge renumbers them, in the same order.
    plans = _asys.plan_id_changes([(path, *head["ids"]) for path, _f, head in kept])
    summaries = [{rule: renumbered(summary, *plan) for rule, summary in head["summaries"].items()}
                 for (_p, _f, head), plan in zip(kept, plans)]
    # Every rule's groups merged, and its median rounds set up: the rounds
    # of all rules then go out together, one task a report a round (before,
    # rule after rule: 3 rounds a rule, 18 gathers for the six summaries).
    selections, covered, orders = {}, {}, {}
    for rule, settings in jobs:
        present = [i for i, (_p, _f, head) in enumerate(kept) if rule not in head["missing"]]
        if not present:
            raise _asys.MissingDataError(kept[0][2]["missing"][rule])
        for path, _future, head in kept:
            for text in head["warnings"][rule]:
                result.warnings.append("%s: %s: warning: %s" % (rule, path, text))
        columns = [summaries[i][rule] for i in present]
        summary_view = not GROUPS_TABLE.get(rule, True)
        merged = Merged(columns, rank_texts=summary_view)
        if columns[0].get("spans"):
            # The span union runs on the workers beside the rounds.
            covered[rule] = _covered(client, rule, [(kept[i][1], plans[i][2]) for i in present], merged)
        selections[rule] = Selection(merged, present)
        if summary_view:
            # The summary's row order needs only the totals and the texts:
            # sorted in a thread (without the GIL) while the rounds go on,
            # not after them (hgtx_sum on the bench's 32 ranks: 338 k names),
            # by the texts' ranks, sorted beside the merge.
            orders[rule] = in_thread("asys-fleet-order", _summary_order, merged)
    result.mark("merged")
    result.median_rounds, result.round_tasks = _rounds_together(client, [f for _p, f, _h in kept], selections,
                                                                result, progress)
    lengths_of = {rule: future.result() for rule, future in covered.items()}
    result.mark("rounds done")
    # The workers' part is done: the states go, and the caller may close
    # the cluster (remote_done) while the tables are made here. The
    # workers' usage and remote_done (--verbose: the task stream's records)
    # are requests through the scheduler, made in a thread beside the
    # tables, not before them (item 36).
    for future in loaded:
        future.release()

    def remote_end():
        usage = _worker_usage(client, token)
        if remote_done is not None:
            remote_done()
        return usage

    ending = in_thread("asys-fleet-remote-end", remote_end)
    progress.phase("making the tables")
    try:
        _make_tables(result, jobs, selections, lengths_of, orders, kept, per_rank_format)
    except BaseException:
        try:  # the thread ended before the error goes on; the table's error is the one raised
            ending()
        except Exception:  # noqa: BLE001
            pass
        raise
    (result.worker_start, result.worker_cpu_start), (result.worker_peaks, result.worker_cpu) = ending()
    result.mark("tables made")
    return result


def _make_tables(result, jobs, selections, lengths_of, orders, kept, per_rank_format):
    """Per rule, the merged table from its groups and statistics."""
    for rule, settings in jobs:
        merged = selections[rule].merged
        stats, rounds, approximate = selections[rule].outcome
        for g in approximate.tolist():
            key = merged.key_of(g)
            result.warnings.append("%s: %s: StdDev past the engine's exact integers, computed in floating point as the "
                                   "engine does" % (rule, " / ".join(key)))
        lengths = lengths_of.get(rule)
        extra = {} if lengths is None else {"covered": lengths}
        if rule in orders:
            extra["order"] = orders[rule]()
        # The table views the texts' bytes and keeps this argument alive
        # (module.cc: MergedTexts): a tuple, which nothing can change after.
        result.tables[rule] = _asys.merged_table(rule, settings[0], stats, tuple(merged.text_columns),
                                                 list(zip(merged.id_kinds, merged.key_ids)), merged.sums, **extra)
        result.rounds[rule] = rounds
        if per_rank_format:
            result.per_rank[rule] = [(path, head["tables"][rule]) for path, _future, head in kept]


class Selection:
    """One rule's merged groups and its median rounds (merge.statistics_rounds)
    as they go: the queries of its next round, or its outcome once done.
    ``present``: the kept reports (by index) that have the rule's data, in
    the order its Merged took their summaries."""

    def __init__(self, merged, present):
        self.merged, self.present = merged, present
        self._rounds = statistics_rounds(merged)
        self.outcome = None
        self.queries = self._next(None)
        # The first round asks about every group a round will (a target
        # only narrows or is done): the asker looks up those only.
        asked = np.zeros(merged.size, dtype=bool)
        if self.queries is not None:
            asked[self.queries[0][0]] = True
            asked[self.queries[1][0]] = True
        self.asker = Asker(merged, asked)

    def _next(self, answer):
        try:
            return next(self._rounds) if answer is None else self._rounds.send(answer)
        except StopIteration as done:
            self.outcome = done.value
            return None

    def requests(self):
        """This round's (kept report index, queries) pairs; keeps what combine needs."""
        self._asked, requests = self.asker.requests(*self.queries)
        return [(self.present[r], q) for r, q in requests]

    def take(self, answers):
        """The answers to requests() in its order: the next round's queries, or done."""
        self.queries = self._next(self.asker.combine(*self.queries, self._asked, answers))


def _summary_order(merged):
    ranks = merged.text_ranks()
    if ranks is None:
        return _asys.summary_order(merged.text_columns, merged.total)
    return _asys.summary_order(merged.text_columns, merged.total, ranks)


def _rounds_together(client, futures, selections, result, progress=SILENT):
    """Runs every rule's median rounds at once: a round is one task a report
    (tasks.answers, for every rule that asks it something) and one gather.
    Returns the rounds and the tasks they took."""
    rounds = tasks_run = 0
    while True:
        asking = [(rule, s) for rule, s in selections.items() if s.queries is not None]
        if not asking:
            return rounds, tasks_run
        progress.phase("median round %d" % (rounds + 1))
        by_report, wanted = {}, []
        for rule, s in asking:
            requests = s.requests()
            wanted.append([k for k, _q in requests])
            for k, queries in requests:
                by_report.setdefault(k, []).append((rule, queries))
        # One task a worker for the reports whose states it holds (their
        # answers in one task, not a task each: Dask's own time a task and
        # the client's a future). A state that moved or is being remade
        # (a worker lost) is fetched where its batch runs, as a task's input.
        order = sorted(by_report)
        held = client.who_has([futures[k] for k in order])
        batches = {}
        for k in order:
            workers = held.get(futures[k].key) or ()
            batches.setdefault(min(workers) if workers else None, []).append(k)
        batches = list(batches.values())
        # Each batch's questions cross pickled, one bytes object: as nested
        # lists of NumPy columns, Dask walked every element of them looking
        # for futures and keys (unpack_remotedata, stringify), ~10 ms of the
        # client's CPU a round with the six summaries on 32 reports.
        asked = [pickle.dumps([by_report[k] for k in b], protocol=pickle.HIGHEST_PROTOCOL) for b in batches]
        replied = client.gather(client.map(tasks.answers_of, [[futures[k] for k in b] for b in batches], asked,
                                           pure=False))
        replies = {k: reply for b, batch in zip(batches, replied) for k, reply in zip(b, batch)}
        replies = [replies[k] for k in order]
        rounds += 1
        tasks_run += len(batches)
        result.mark("round %d in" % rounds)
        got = {}
        for k, reply in zip(order, replies):
            for (rule, _q), data in zip(by_report[k], reply):
                result.largest_reply[rule] = max(result.largest_reply.get(rule, 0), len(data))
                got[rule, k] = pickle.loads(data)
        for (rule, s), reports in zip(asking, wanted):
            s.take([got[rule, k] for k in reports])


def _covered(client, rule, present, merged):
    """Per merged group, the length of the union of its spans over every
    report (a future): the reports' blocks united pairwise on the workers
    (a tree of log2 N levels); the client receives one length a group.
    ``present``: (the report's load future, its time shift) pairs."""
    parts = [client.submit(tasks.spans, future, rule, where, shift, pure=False)
             for (future, shift), where in zip(present, merged.where)]
    while len(parts) > 1:
        paired = [client.submit(tasks.span_union, a, b, pure=False) for a, b in zip(parts[0::2], parts[1::2])]
        parts = paired + parts[len(paired) * 2:]
    return client.submit(tasks.span_lengths, parts[0], merged.size, pure=False)


def _worker_usage(client, token):
    """Before the run (each worker's first load of it) and at its end, per
    worker address: its peak resident bytes, and its CPU seconds; as
    ((peaks, CPU) before, (peaks, CPU) at the end)."""
    usage = client.run(tasks.usage_in_run, token)
    return tuple(({w: u[i][0] for w, u in usage.items()}, {w: u[i][1] for w, u in usage.items()}) for i in (0, 1))

"""The fleet run on a Dask client: states per report, merged exactly, then
the table ``asys stats`` makes of all the reports merged into one, through
the engine's own row builder and writers."""

import pickle
import resource

from .. import _asys
from ..report import AsysError
from . import tasks
from .merge import Merged, asker, merged_statistics

_RULES = {r["name"]: r for r in _asys.rules()}


def check_job(name, settings):
    """Refuses, in one line that says why, a rule the fleet cannot merge, or
    an option that means another thing on every report."""
    check_rule(name)
    for item in settings[0]:
        if (name, item) in NOT_MERGED_OPTIONS:
            raise AsysError("%s: option '%s' does not run in asys fleet: %s" % (name, item, NOT_MERGED_OPTIONS[(name, item)]))
        option = item.split("=", 1)[0]
        if option in ID_OPTIONS:
            raise AsysError("%s: option '%s' names one report's ids, which differ from rank to rank; "
                            "asys fleet takes no %s option" % (name, item, option))


def check_rule(name):
    """Refuses, in one line that says why, a rule the fleet cannot merge."""
    rule = _RULES.get(name)
    if rule is None:
        raise AsysError("unknown rule '%s' (asys stats --help-reports lists the rules)" % name)
    if rule["compare"]:
        raise AsysError("'%s' compares two reports, not a fleet of ranks" % name)
    if name.endswith("_trace") and not rule["mergeable"]:
        raise AsysError("'%s' is a trace: it lists every event of every report, nothing merges; run it per report "
                        "(asys stats) or on one report of asys merge" % name)
    if name in NOT_MERGED:
        raise AsysError("'%s' does not run in asys fleet: %s; run it on one report of asys merge" % (name, NOT_MERGED[name]))
    if not rule["mergeable"]:
        raise AsysError("'%s' has no mergeable state (docs/fleet.md lists the rules asys fleet runs)" % name)
    return rule


# The rules with no mergeable state, and why (docs/fleet.md).
_BREAKDOWN = ("not built: its framework -> library -> kernel paths (with each operator's Idle time) have no "
              "mergeable state yet")
NOT_MERGED = {
    "device_memory_usage_detail": "it lists every allocation of every report, as a trace does",
    "ppu_op_kernel_breakdown": _BREAKDOWN,
    "ppu_op_breakdown": _BREAKDOWN,
    "ppu_op_unit_test": "it writes one test per operator instance, as a trace does",
}

# Options whose table a fleet cannot merge, and why.
NOT_MERGED_OPTIONS = {
    ("ppu_time_util", "range-mode=full"): ("range-mode=full divides the capture range of all the reports together, "
                                           "which no report knows alone"),
}


# Options that name a report's own ids: every report has its own id space,
# and asys merge renumbers them, so the same id means another thing.
ID_OPTIONS = ("device", "process", "thread")


class FleetResult:
    """Per rule: the merged table (``_asys.Table``), the rounds its medians
    took, and the largest answer one report sent back for it (bytes,
    pickled: its summary, or one round's answer)."""

    def __init__(self):
        self.tables, self.rounds, self.per_rank, self.warnings = {}, {}, {}, []
        self.largest_reply, self.skipped = {}, []
        # Worker address -> peak resident bytes, before the run (the
        # interpreter, pandas, the engine) and after it.
        self.worker_start, self.worker_peaks = {}, {}


def _reply_size(obj):
    return len(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def run(client, paths, jobs, per_rank_format=None, skip_bad=False):
    """``jobs``: (rule, settings) pairs, settings as _options.run_settings
    makes them. One task per report; the states stay on the workers."""
    for rule, settings in jobs:
        check_job(rule, settings)
    result = FleetResult()
    result.worker_start = client.run(_peak_resident_bytes)
    # client.map, not a submit per task: distributed reads the caller's
    # source for each submit call (Client._get_computation_code, 3 ms each),
    # which was a tenth of a 32-report run on the client's core.
    n = len(paths)
    loaded = client.map(tasks.load, paths, [jobs] * n, [per_rank_format] * n,
                        key=["asys-load-%d" % i for i in range(n)], pure=False)
    heads = client.gather(client.map(tasks.head, loaded, key=["asys-head-%d" % i for i in range(len(paths))]))
    kept = []
    for path, future, head in zip(paths, loaded, heads):
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
    summaries = client.gather(client.map(tasks.summaries, [future for _p, future, _h in kept], plans,
                                         key=["asys-summary-%d" % i for i in range(len(kept))], pure=False))
    for summary in summaries:
        for rule, packed in summary.items():
            result.largest_reply[rule] = max(result.largest_reply.get(rule, 0), _reply_size(packed))
            summary[rule] = tasks.unpack(packed)
    for rule, settings in jobs:
        present = [(future, summary[rule], plan[2]) for (_p, future, head), summary, plan in zip(kept, summaries, plans)
                   if rule not in head["missing"]]
        if not present:
            raise _asys.MissingDataError(kept[0][2]["missing"][rule])
        for path, _future, head in kept:
            for text in head["warnings"][rule]:
                result.warnings.append("%s: %s: warning: %s" % (rule, path, text))
        merged = Merged([columns for _f, columns, _s in present])
        ask = _asker(client, rule, [f for f, _c, _s in present], merged, result)
        covered = _covered(client, rule, present, merged) if present[0][1].get("spans") else None
        stats, rounds, approximate = merged_statistics(merged, ask)
        for g in approximate.tolist():
            key = [str(c[g]) for c in merged.key_ids] + [c[g] for c in merged.key_texts]
            result.warnings.append("%s: %s: StdDev past the engine's exact integers, computed in floating point as the "
                                   "engine does" % (rule, " / ".join(key)))
        result.tables[rule] = _asys.merged_table(rule, settings[0], stats, merged.key_texts,
                                                 list(zip(merged.id_kinds, merged.key_ids)), merged.sums,
                                                 *([] if covered is None else [covered]))
        result.rounds[rule] = rounds
        if per_rank_format:
            result.per_rank[rule] = [(path, head["tables"][rule]) for path, _future, head in kept]
    for future in loaded:
        future.release()
    result.worker_peaks = client.run(_peak_resident_bytes)
    return result


def _asker(client, rule, futures, merged, result):
    """select's ask over the reports of one rule, on the workers."""
    def answer_all(requests):
        answers = client.gather(client.map(tasks.answer, [futures[r] for r, _q in requests],
                                           [rule] * len(requests), [q for _r, q in requests], pure=False))
        result.largest_reply[rule] = max([result.largest_reply.get(rule, 0)] + [_reply_size(a) for a in answers])
        return answers

    return asker(merged, answer_all)


def _covered(client, rule, present, merged):
    """Per merged group, the length of the union of its spans over every
    report: the reports' blocks united pairwise on the workers (a tree of
    log2 N levels); the client receives one length a group."""
    parts = [client.submit(tasks.spans, future, rule, where, shift, pure=False)
             for (future, _c, shift), where in zip(present, merged.where)]
    while len(parts) > 1:
        paired = [client.submit(tasks.span_union, a, b, pure=False) for a, b in zip(parts[0::2], parts[1::2])]
        parts = paired + parts[len(paired) * 2:]
    return client.submit(tasks.span_lengths, parts[0], merged.size, pure=False).result()


def _peak_resident_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

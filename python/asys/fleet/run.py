"""The fleet run on a Dask client: states per report, merged exactly, then
the table ``asys stats`` makes of all the reports merged into one, through
the engine's own row builder and writers."""

import pickle
import resource

import numpy as np

from .. import _asys
from ..report import AsysError
from . import tasks
from .merge import merge_summaries, merged_statistics
from .selection import join_answers

_RULES = {r["name"]: r for r in _asys.rules()}


def check_job(name, settings):
    """Refuses, in one line that says why, a rule the fleet cannot merge, or
    an option that means another thing on every report."""
    check_rule(name)
    for item in settings[0]:
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
    if name.endswith("_trace"):
        raise AsysError("'%s' is a trace: it lists every event of every report, nothing merges; run it per report "
                        "(asys stats) or on one report of asys merge" % name)
    if not rule["mergeable"]:
        raise AsysError("'%s' has no mergeable state yet (docs/fleet.md lists the rules asys fleet runs)" % name)
    return rule


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
    loaded = [client.submit(tasks.load, path, jobs, per_rank_format, key="asys-load-%d" % i, pure=False)
              for i, path in enumerate(paths)]
    heads = client.gather(client.map(tasks.summaries, loaded, key=["asys-summary-%d" % i for i in range(len(paths))]))
    kept = []
    for path, future, head in zip(paths, loaded, heads):
        if "error" in head:
            if not skip_bad:
                raise AsysError(head["error"])
            result.skipped.append((path, head["error"]))
            continue
        for rule, summary in head["summaries"].items():
            result.largest_reply[rule] = max(result.largest_reply.get(rule, 0), _reply_size(summary))
        kept.append((path, future, head))
    if not kept:
        raise AsysError("no report could be opened")
    for rule, settings in jobs:
        present = [(path, future, head) for path, future, head in kept if rule not in head["missing"]]
        if not present:
            raise _asys.MissingDataError(kept[0][2]["missing"][rule])
        for path, _future, head in kept:
            for text in head["warnings"][rule]:
                result.warnings.append("%s: %s: warning: %s" % (rule, path, text))
        merged = merge_summaries(head["summaries"][rule] for _path, _future, head in present)
        futures = [future for _path, future, _head in present]

        merged_keys = list(merged)

        def ask(count_queries, fetch_queries, futures=futures, rule=rule):
            # The keys of the groups this round asks about, with the
            # queries renumbered into them: one broadcast to every worker,
            # as large as the round, not as the merged table.
            groups = np.unique(np.concatenate([count_queries[:, 0], fetch_queries[:, 0]]))
            round_keys = [merged_keys[g] for g in groups.tolist()]
            count_queries, fetch_queries = count_queries.copy(), fetch_queries.copy()
            count_queries[:, 0] = np.searchsorted(groups, count_queries[:, 0])
            fetch_queries[:, 0] = np.searchsorted(groups, fetch_queries[:, 0])
            queries = _broadcast(client, (round_keys, count_queries, fetch_queries))
            answers = client.gather([client.submit(tasks.answer, f, rule, queries, pure=False) for f in futures])
            result.largest_reply[rule] = max([result.largest_reply.get(rule, 0)] + [_reply_size(a) for a in answers])
            return join_answers(answers, len(fetch_queries))

        stats, rounds, approximate = merged_statistics(merged, ask)
        for key in approximate:
            result.warnings.append("%s: %s: StdDev past the engine's exact integers, computed in floating point as the "
                                   "engine does" % (rule, " / ".join(key)))
        keys = list(stats)
        columns = [[stats[k][c] for k in keys] for c in range(7)]
        texts = [[k[c] for k in keys] for c in range(len(keys[0]))] if keys else _empty_texts(rule)
        result.tables[rule] = _asys.summary_table(rule, settings[0], columns, texts)
        result.rounds[rule] = rounds
        if per_rank_format:
            result.per_rank[rule] = [(path, head["tables"][rule]) for path, _future, head in kept]
    for future in loaded:
        future.release()
    result.worker_peaks = client.run(_peak_resident_bytes)
    return result


def _broadcast(client, payload):
    """One future of `payload` on every worker. (A list or tuple given to
    scatter itself would become one future per element.)"""
    return client.scatter([payload], broadcast=True)[0]


def _peak_resident_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _empty_texts(rule):
    # No group in any report: the text columns, empty.
    kinds = [c for c in _RULES[rule]["columns"]]
    return [[] for _ in range(len(kinds) - 8)]

"""python -m asys.fleet stats ... (asys fleet stats ...): docs/fleet.md."""

import gc
import os
import resource
import sys
import threading
import time

START = time.monotonic()
START_CPU = time.process_time()  # the interpreter's start and this module's imports before it

# No garbage collection while the command imports distributed and the run
# (~100 k objects, none of them garbage): the collector's passes over them
# were 23 ms of the 165 ms of CPU those imports take, on the serial start of
# every run (docs/fleet.md, "What the run's time goes to", item 28). It is
# on again (_collect_again) before the workers fork, and at every return.
# Only when run as the program: a process that imports this module for
# main() alone keeps its collector as it was.
_GC_WAS_ENABLED = gc.isenabled()
if __name__ == "__main__":
    gc.disable()

from .. import _asys
from ..report import AsysError
from . import start_cluster
from .client_memory import available_bytes
from .progress import Progress
from .refusals import check_job

USAGE = """usage: asys fleet stats -r RULE[:OPT...][,RULE...] [-r RULE...] [--scheduler ADDRESS | --local N]
                        [--per-rank] [--skip-bad] [--format csv|json|column] [--output DIR/PREFIX]
                        [-f true|false] [--filter-time START/END | --filter-hgtx NAME[@DOMAIN][/INDEX]]
                        [--callstack-group-config ...]... [--ppu-op-config ...]... [--verbose] REPORT...
Runs summary rules over many rank reports on Dask: the tables asys stats makes of
all the reports merged into one (asys merge), exactly. Without --scheduler, on a
LocalCluster of --local N worker processes (default: the core count).
--per-rank adds each report's own table. A report that cannot be opened fails
the run, or with --skip-bad is left out and named on stderr. A run whose
summaries cannot fit in this client stops once the first reports are in
(ASYS_FLEET_CLIENT_MEMORY=BYTES: what the client may use; else what the
system has available).
"""

GLOBAL = set(_asys.global_option_names())


class Usage(Exception):
    pass


def parse(args):
    a = {"rules": [], "scheduler": None, "local": None, "per_rank": False, "skip_bad": False, "format": "csv",
         "output": None, "force": False, "filter_time": "", "filter_hgtx": "", "global": [], "verbose": False,
         "reports": []}
    i = 0

    def value():
        nonlocal i
        if i + 1 >= len(args):
            raise Usage("%s: missing value" % args[i])
        i += 1
        return args[i]

    while i < len(args):
        arg = args[i]
        if arg in ("-r", "--report"):
            a["rules"] += [r for r in _split_rules(value()) if r]
        elif arg == "--scheduler":
            a["scheduler"] = value()
        elif arg == "--local":
            v = value()
            if not v.isdigit() or int(v) < 1:
                raise Usage("--local: expected a number of worker processes, got '%s'" % v)
            a["local"] = int(v)
        elif arg == "--per-rank":
            a["per_rank"] = True
        elif arg == "--skip-bad":
            a["skip_bad"] = True
        elif arg == "--format":
            a["format"] = value()
            if a["format"] not in ("csv", "json", "column"):
                raise Usage("--format: expected csv, json or column, got '%s'" % a["format"])
        elif arg in ("--output", "-o"):
            a["output"] = value()
        elif arg in ("-f", "--force-overwrite"):
            v = value()
            if v not in ("true", "false"):
                raise Usage("%s: expected true or false, got '%s'" % (arg, v))
            a["force"] = v == "true"
        elif arg == "--filter-time":
            a["filter_time"] = value()
        elif arg == "--filter-hgtx":
            a["filter_hgtx"] = value()
        elif arg.startswith("--") and arg[2:] in GLOBAL:
            a["global"].append((arg[2:], value()))
        elif arg == "--verbose":
            a["verbose"] = True
        elif arg.startswith("-") and len(arg) > 1:
            raise Usage("unknown option '%s' (see asys fleet --help)" % arg)
        else:
            a["reports"].append(arg)
        i += 1
    if a["scheduler"] and a["local"]:
        raise Usage("--scheduler and --local: give one")
    if not a["rules"]:
        raise Usage("no rule given (-r RULE)")
    if not a["reports"]:
        raise Usage("no report given")
    return a


def _split_rules(text):
    # ',' separates rules; '\,' is a literal comma inside one's options.
    out, cur, escaped = [], "", False
    for ch in text:
        if escaped:
            cur += ("\\" + ch) if ch != "," else ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ",":
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur + ("\\" if escaped else "")]


def _extension(fmt):
    return {"csv": "csv", "json": "json", "column": "txt"}[fmt]


def _output_path(output, name):
    return output + name if output.endswith("/") else output + "_" + name


def _write_whole(path, data):
    """``data``: bytes, or a function that writes to the binary file it is given."""
    partial = path + ".partial"
    try:
        with open(partial, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise


def _collect_again():
    """The collector back on, as it was before this module was imported,
    with what the imports made frozen (gc.freeze: kept out of every later
    pass; the workers forked after this share those pages with the client
    rather than copying them when a pass touches their headers, as the gc
    module's documentation advises before a fork)."""
    if _GC_WAS_ENABLED and not gc.isenabled():
        gc.freeze()
        gc.enable()


def main(argv):
    try:
        return _main(argv)
    finally:
        _collect_again()


def _main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(USAGE)
        return 0 if argv else 2
    if argv[0] != "stats":
        sys.stderr.write("asys fleet: unknown command '%s' (asys fleet stats ...)\n" % argv[0])
        return 2
    try:
        a = parse(argv[1:])
        jobs = []
        for spec in a["rules"]:
            rule, items = _asys.parse_rule_spec(spec)
            jobs.append((rule, (items, a["filter_time"], a["filter_hgtx"], a["global"])))
            check_job(*jobs[-1])
        available_bytes()  # a bad ASYS_FLEET_CLIENT_MEMORY, before anything starts
    except (Usage, AsysError) as e:
        sys.stderr.write("asys fleet: %s\n" % e)
        return 2
    fmt, ext = a["format"], _extension(a["format"])
    # Every output path is checked before anything runs: all or nothing.
    planned = {}
    if a["output"]:
        for rule, _settings in jobs:
            planned[rule] = _output_path(a["output"], "%s.%s" % (rule, ext))
            names = [planned[rule]]
            if a["per_rank"]:
                names += [_rank_path(a["output"], rule, report, ext) for report in a["reports"]]
            for name in names:
                if not a["force"] and os.path.exists(name):
                    sys.stderr.write("asys fleet: %s exists (use -f true to overwrite); nothing was run\n" % name)
                    return 2
    # On a terminal, one line says where the run is (progress.py).
    progress = Progress(sys.stderr, len(a["reports"]))
    progress.phase("connecting to %s" % a["scheduler"] if a["scheduler"] else "starting the workers")
    # The cluster starts while the client imports the run (Dask's client,
    # NumPy): the cluster's thread imports distributed meanwhile, and a
    # LocalCluster's workers are forked from this process once the imports
    # here are done (no import under way in another thread at the fork).
    imported = threading.Event()
    waiting = start_cluster(a["scheduler"], a["local"], None if a["scheduler"] else imported)
    from .run import run as run_fleet
    _no_computation_code()
    _collect_again()
    imported.set()

    try:
        client = waiting()
    except Exception as e:  # noqa: BLE001 - a scheduler that does not answer, in one line
        progress.clear()
        sys.stderr.write("asys fleet: cannot reach the Dask scheduler %s: %s\n" % (a["scheduler"] or "", e))
        return 1
    ready, ready_cpu = time.monotonic(), time.process_time()
    # The LocalCluster this command started (a --scheduler client has none):
    # its worker processes are ended at once after the output is written,
    # not closed gracefully (_end_now).
    own_cluster = client.cluster is not None
    closing, remote_over = [], []
    stream = _task_stream(client) if a["verbose"] else None

    def close_in_background():
        remote_over.append(True)
        if stream is not None:
            stream.__exit__(None, None, None)
        if own_cluster:
            return
        # A scheduler's client closes while the client makes the merged
        # tables and writes them; a thread Python waits for at exit,
        # whatever happens after.
        closing.append(threading.Thread(target=_close, args=(client,), name="asys-fleet-close"))
        closing[-1].start()

    try:
        with progress:  # erased before the error below, or the tables
            result = run_fleet(client, a["reports"], jobs, fmt if a["per_rank"] else None, a["skip_bad"],
                               remote_done=close_in_background, progress=progress)
    except AsysError as e:
        sys.stderr.write("asys fleet: %s\n" % e)
        return 1
    finally:
        if not remote_over:  # the run stopped before the workers were done: closed as Dask does
            _close(client)
    for path, error in result.skipped:
        sys.stderr.write("asys fleet: skipped %s: %s\n" % (path, error))
    for text in result.warnings:
        sys.stderr.write("asys fleet: %s\n" % text)
    framed = len(jobs) > 1 or a["per_rank"]
    out = sys.stdout.buffer
    for rule, _settings in jobs:
        table = result.tables[rule]
        ranks = result.per_rank.get(rule, [])
        if a["output"]:
            _write_whole(planned[rule], lambda f, rule=rule, table=table: _write_table(rule, table, fmt, f))
            sys.stderr.write("asys fleet: %s: wrote %s\n" % (rule, planned[rule]))
            for report, table in ranks:
                if isinstance(table, bytes):
                    _write_whole(_rank_path(a["output"], rule, report, ext), table)
            continue
        if framed:
            out.write(("# %s\n" % rule).encode())
        _write_table(rule, table, fmt, out)
        if framed:
            out.write(b"\n")
        for report, table in ranks:
            out.write(("# %s: %s\n" % (rule, report)).encode())
            out.write(table if isinstance(table, bytes) else ("%s\n" % table).encode())
            out.write(b"\n")
    out.flush()
    written, written_cpu = time.monotonic(), time.process_time()
    if a["verbose"]:
        phases = [("cluster ready", ready)] + result.timeline + [("tables written", written)]
        sys.stderr.write("asys fleet: timeline (s since the client started): %s\n" %
                         ", ".join("%s %.2f" % (name, t - START) for name, t in phases))
        # The client's CPU (its process: the main thread, the scheduler's
        # event loop, the close) at each phase: what of it lies on the path
        # after the last head, where the workers have nothing left to do.
        cpu = [("at start", START_CPU), ("cluster ready", ready_cpu)] + result.timeline_cpu + \
            [("tables written", written_cpu)]
        sys.stderr.write("asys fleet: client CPU by phase (s of CPU since the process started): %s\n" %
                         ", ".join("%s %.2f" % (name, t) for name, t in cpu))
        for rule, _settings in jobs:
            sys.stderr.write("asys fleet: %s: %d reports, %d median rounds (its own), largest reply %d bytes\n" %
                             (rule, len(a["reports"]) - len(result.skipped), result.rounds[rule],
                              result.largest_reply.get(rule, 0)))
        sys.stderr.write("asys fleet: %d median rounds for all rules together, %d tasks\n" %
                         (result.median_rounds, result.round_tasks))
        # The client's own CPU (its threads; not the workers'): what a second
        # worker cannot shorten.
        own = resource.getrusage(resource.RUSAGE_SELF)
        sys.stderr.write("asys fleet: client CPU %.2f s (user %.2f, system %.2f)\n" %
                         (own.ru_utime + own.ru_stime, own.ru_utime, own.ru_stime))
        if stream is not None:
            for line in _worker_time(stream.data):
                sys.stderr.write("asys fleet: %s\n" % line)
        peaks = sorted(result.worker_peaks.values())
        grown = sorted(peak - result.worker_start.get(w, 0) for w, peak in result.worker_peaks.items())
        sys.stderr.write("asys fleet: workers CPU (s) at the run's start %s, in the run %s\n" %
                         (", ".join("%.2f" % result.worker_cpu_start.get(w, 0) for w in sorted(result.worker_cpu)),
                          ", ".join("%.2f" % (c - result.worker_cpu_start.get(w, 0))
                                    for w, c in sorted(result.worker_cpu.items()))))
        sys.stderr.write("asys fleet: %d workers, peak resident memory %s MiB, grown in the run by %s MiB\n" %
                         (len(peaks), ", ".join("%.0f" % (p / 2**20) for p in peaks),
                          ", ".join("%.0f" % (g / 2**20) for g in grown)))
    for thread in closing:
        thread.join()
    if own_cluster:
        _end_now(client, 0)
    return 0


def _write_table(rule, table, fmt, out):
    """The merged table written to ``out`` (a binary file). A duration
    summary's (a view over merged columns, read from many threads at once
    without harm) is formatted in pieces on every core: hgtx_sum's 338 k
    merged names on the bench's 32 ranks are 55 MB of CSV, on the run's
    serial path (docs/fleet.md, "What the run's time goes to", items 13 and
    19). Where ``out`` has a file descriptor the engine writes the pieces to
    it in order as they are made (``Table.write_to``), after what ``out``
    buffered; else the bytes are made whole and written."""
    from .run import GROUPS_TABLE

    threads = 1 if GROUPS_TABLE.get(rule, True) else max(1, os.cpu_count() or 1)
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        fd = None
    if fd is None:
        out.write(table.write(fmt, threads))
        return
    out.flush()
    table.write_to(fmt, fd, threads)


def _no_computation_code():
    """Dask's client reads the source of the function that submits each
    batch of tasks (Client._get_computation_code, for the dashboard's list
    of computations): 0.11 s of the client's CPU a client.map, five to a
    run. Frames of the modules it is told to ignore are skipped; here every
    frame is this command's, so none is read."""
    import dask

    ignored = list(dask.config.get("distributed.diagnostics.computations.ignore-modules", []))
    dask.config.set({"distributed.diagnostics.computations.ignore-modules": ignored + ["asys", "__main__", "runpy"]})


def _task_stream(client):
    """Dask's record of every task's compute time on its worker, from now
    until its __exit__ (--verbose)."""
    from distributed import get_task_stream

    stream = get_task_stream(client)
    stream.__enter__()
    return stream


def _worker_time(records):
    """Per kind of task (load, head, summary, answers, ...): how many ran,
    their compute seconds summed over the workers, and the seconds from the
    first one's start to the last one's end: what the workers did, apart
    from the client's own part."""
    from dask.utils import key_split

    kinds = {}
    for r in records:
        spans = [(s["start"], s["stop"]) for s in r.get("startstops", ()) if s.get("action") == "compute"]
        if not spans:
            continue
        kind = kinds.setdefault(key_split(r["key"]), [0, 0.0, float("inf"), 0.0])
        kind[0] += 1
        kind[1] += sum(stop - start for start, stop in spans)
        kind[2] = min(kind[2], min(start for start, _ in spans))
        kind[3] = max(kind[3], max(stop for _, stop in spans))
    return ["worker time: %s: %d tasks, %.2f s computing, %.2f s from the first start to the last end" %
            (name, n, busy, last - first) for name, (n, busy, first, last) in sorted(kinds.items(), key=lambda k: k[1][2])]


def _end_now(client, rc):
    """Ends this process and the worker processes of the LocalCluster it
    started, once its output is written and flushed, without Dask's
    graceful close (0.28-0.30 s of both cores' CPU and 0.1 s of waiting at
    the end of the bench's 2-worker run: docs/fleet.md, "What the run's
    time goes to"): each worker process is killed (the nannies live in
    this process and end with it, so none restarts it), the cluster's
    scratch folder (the workers' spilled values) removed, and the
    interpreter left with os._exit (no atexit close of the cluster). The
    killed workers are this process's children: once it exits they are
    reaped, none is left behind."""
    import shutil
    import signal

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    cluster = client.cluster
    nannies = list(getattr(cluster, "workers", {}).values())
    # Marked failed first: a nanny that sees its worker die restarts it (in
    # the event loop's thread, while this one ends), which spawned a new
    # interpreter past the run's end: measured as up to 0.3 s more of the
    # command's wall and a leaked semaphore's warning in some runs.
    from distributed.core import Status

    for nanny in nannies:
        try:
            nanny.status = Status.failed
        except (AttributeError, TypeError):
            pass
    for nanny in nannies:
        pid = getattr(nanny, "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    scratch = getattr(cluster, "asys_scratch", None)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    # What multiprocessing does at exit, without waiting for the children:
    # the nannies' queues' semaphores unlinked (else its resource tracker,
    # which outlives this process, unlinks them and warns on stderr).
    from multiprocessing import util

    util._run_finalizers(0)
    os._exit(rc)


def _close(client):
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


def _rank_path(output, rule, report, ext):
    stem = os.path.splitext(os.path.basename(report))[0]
    return _output_path(output, "%s_%s.%s" % (rule, stem, ext))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

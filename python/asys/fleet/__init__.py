"""Exact statistics over the reports of many ranks, on dask.distributed.

    from asys import fleet
    tables = fleet.stats(["rank-0.asysrep", "rank-1.asysrep"], ["hggc_ppu_kern_sum"], local=2)
    tables["hggc_ppu_kern_sum"]        # a DataFrame, as Report.stats gives

Each report is opened once, in a worker, and gives each rule's mergeable
state (per group: count, integer sum, min, max, sum of squares; the values
stay on the worker for the medians' counting rounds). The tables equal
``asys stats`` on the reports merged into one (``asys merge``). The command
line is ``python -m asys.fleet stats`` (``asys fleet stats``); docs/fleet.md.
"""

import contextlib
import os
import shutil
import tempfile
import weakref

from .background import in_thread
from .refusals import check_job, check_rule

__all__ = ["stats", "check_job", "check_rule", "run", "cluster_client", "start_cluster"]


def __getattr__(name):
    # run (and with it pandas) is imported when first asked for: the command
    # line starts the cluster first and imports it meanwhile (start_cluster).
    if name == "run":
        from .run import run
        return run
    raise AttributeError("module 'asys.fleet' has no attribute '%s'" % name)


def cluster_client(scheduler=None, local=None, fork_after=None):
    """A Dask client: of the scheduler at ``scheduler``, or of a LocalCluster
    of ``local`` worker processes (default: the core count).

    ``fork_after``: a threading.Event, or None. If given, the LocalCluster's
    worker processes are forked from this process (its imports already
    done), not spawned as fresh interpreters that import distributed, NumPy
    and the engine again: the cluster is made once the event is set, so
    that no import of another thread is under way when a worker forks (a
    module lock held at the fork would stay held in the worker). The
    command line's own choice (docs/fleet.md, "What the run's time goes
    to", item 17); ``fleet.stats`` spawns, as Dask does, since a caller's
    process (a notebook's) may hold anything at the fork."""
    import logging

    if not scheduler and fork_after is not None:
        _import_tornado_without_ca_certificates()
    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler)
    import dask

    workers = local or os.cpu_count() or 1
    # Its own scratch folder: two runs on one machine sharing Dask's default
    # /tmp/dask-worker-space purge each other's worker folders as stale.
    scratch = tempfile.mkdtemp(prefix="asys-fleet-")
    # The scheduler and the nannies read these when made, and each nanny
    # hands them to its worker process (also when it starts one again).
    from .lean_worker import leave_out_pandas

    leave_out_pandas()
    config = dict(QUIET)
    if fork_after is not None:
        config["distributed.worker.multiprocessing-method"] = "fork"
        fork_after.wait()
    with dask.config.set(config), _nannies_polling(fork_after is not None):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR, local_directory=scratch)
    weakref.finalize(cluster, shutil.rmtree, scratch, True)
    cluster.asys_scratch = scratch  # the command line removes it itself (__main__._end_now)
    return Client(cluster)


@contextlib.contextmanager
def _nannies_polling(often):
    """A nanny learns that its worker process has started by polling a
    queue every 50 ms (distributed.nanny.WorkerProcess._init_msg_interval),
    so a forked worker ready within ~40 ms was seen 0-50 ms late, on the
    serial start of every run: the cluster was made 66-83 ms after the
    fork began, 40-47 ms polling every 2 ms (docs/fleet.md, "What the run's
    time goes to", item 29). ``often``: polled every 2 ms while the cluster
    is made (the command line's forked workers); a worker restarted later
    is polled as Dask does."""
    if not often:
        yield
        return
    from distributed.nanny import WorkerProcess

    every = WorkerProcess.__dict__.get("_init_msg_interval")
    if not isinstance(every, (int, float)):  # another distributed: left as it is
        yield
        return
    WorkerProcess._init_msg_interval = min(every, 0.002)
    try:
        yield
    finally:
        WorkerProcess._init_msg_interval = every


def _import_tornado_without_ca_certificates():
    """tornado.netutil makes two default TLS contexts when imported (for
    TLS connections given no context of their own), and the client one
    loads the system's CA certificates: 16 ms of CPU on the command line's
    start, before its cluster can start. The command line's own LocalCluster
    talks plain TCP on 127.0.0.1 and never uses them, so there they are
    made without the certificates (the same contexts otherwise). A
    --scheduler run, and fleet.stats, import tornado as it is."""
    import ssl
    import sys

    if "tornado.netutil" in sys.modules:
        return
    made = ssl.create_default_context

    def without_certificates(purpose=ssl.Purpose.SERVER_AUTH, *, cafile=None, capath=None, cadata=None):
        if cafile or capath or cadata:
            return made(purpose, cafile=cafile, capath=capath, cadata=cadata)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT if purpose == ssl.Purpose.SERVER_AUTH
                                 else ssl.PROTOCOL_TLS_SERVER)
        return context

    ssl.create_default_context = without_certificates
    try:
        import tornado.netutil  # noqa: F401
    finally:
        ssl.create_default_context = made


# Dask's housekeeping that a fleet run does not use, off or slower in the
# LocalCluster: each costs CPU on the cores the workers share with the
# client. Measured on an idle LocalCluster(2) for 10 s (2026-12-05): the
# client process 0.47 s of CPU and the workers 0.86 s with Dask's defaults,
# 0.12 s and 0.10 s with these. The statistical profiler (a thread in every
# server, the scheduler, the nannies and each worker, walking the stacks
# every 10 ms) feeds only the dashboard; the event loop's health tick every
# 20 ms only warns; the system monitor's disk counters and its 0.5 s
# interval feed the dashboard; the workers' memory check every 0.1 s
# (1 s still stops a worker past its limit). Work stealing is off: a report's
# later tasks must run where its state is, and the loads are handed out as
# workers free up (Dask's queuing of root tasks) without it.
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.system-monitor.disk": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing": False,
    # No pandas imported to report its version (lean_worker).
    "distributed.worker.preload": ["asys.fleet.lean_worker"],
    # Three tasks a worker of one thread at once, not two (ceil(1.1)): a
    # report's head counts as one, so with two a worker often finished a
    # load before the scheduler had sent it the next one (6-8 ms idle every
    # second load, 0.08-0.15 s a worker of the bench's 2-worker run, 0.12 s
    # of the 1-worker run); with three, the next load is already there.
    "distributed.scheduler.worker-saturation": 3.0,
}


def start_cluster(scheduler=None, local=None, fork_after=None):
    """cluster_client in a thread of its own: returns a function that waits
    for the client (and raises what starting it raised). Meanwhile the
    caller can import what it needs: the thread waits mostly on the worker
    processes, which start on the other cores (a LocalCluster of two took
    1.9 s and the client's imports 1.6 s, one after the other, of a 20 s
    run: docs/fleet.md, "What the run's time goes to")."""
    return in_thread("asys-fleet-cluster", cluster_client, scheduler, local, fork_after)


def stats(paths, rules, client=None, scheduler=None, local=None, skip_bad=False, **options):
    """Per rule, the DataFrame of the reports merged into one. ``options``
    as Report.stats takes them, for every rule."""
    own = client is None
    waiting = None if client else start_cluster(scheduler, local)
    from .._frame import frame_of
    from .._options import run_settings
    from .run import run

    client = client or waiting()
    try:
        settings = run_settings(options)
        result = run(client, [os.fspath(p) for p in paths], [(r, settings) for r in rules], skip_bad=skip_bad)
        return {rule: frame_of(table.columns(), rule) for rule, table in result.tables.items()}
    finally:
        if own:
            cluster = client.cluster
            client.close()
            if cluster is not None:
                cluster.close()

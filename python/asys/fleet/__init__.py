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

import os
import shutil
import tempfile
import weakref

from .._frame import frame_of
from .._options import run_settings
from .run import check_job, check_rule, run

__all__ = ["stats", "check_job", "check_rule", "run", "cluster_client"]


def cluster_client(scheduler=None, local=None):
    """A Dask client: of the scheduler at ``scheduler``, or of a LocalCluster
    of ``local`` worker processes (default: the core count)."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler)
    workers = local or os.cpu_count() or 1
    # Its own scratch folder: two runs on one machine sharing Dask's default
    # /tmp/dask-worker-space purge each other's worker folders as stale.
    scratch = tempfile.mkdtemp(prefix="asys-fleet-")
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR, local_directory=scratch)
    weakref.finalize(cluster, shutil.rmtree, scratch, True)
    return Client(cluster)


def stats(paths, rules, client=None, scheduler=None, local=None, skip_bad=False, **options):
    """Per rule, the DataFrame of the reports merged into one. ``options``
    as Report.stats takes them, for every rule."""
    own = client is None
    client = client or cluster_client(scheduler, local)
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

"""Preloaded into each worker of the fleet's LocalCluster (QUIET's
``distributed.worker.preload``), and run in the client's process before
it starts its scheduler: Dask reports the versions of a few packages when
a worker registers (distributed.versions.get_versions, in the worker and
again in the scheduler), and imports pandas to do so, which the fleet
never uses: about 1 s of CPU and ~30 MiB in every worker before its first
task, and 1 s in the client. pandas is left out of that report here (the
client and the workers leave it out alike, so their reports still
agree)."""

from distributed import versions


def leave_out_pandas():
    versions.optional_packages[:] = [p for p in versions.optional_packages if p[0] != "pandas"]


leave_out_pandas()

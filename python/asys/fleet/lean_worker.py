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


def dask_setup(worker):
    """In each worker once it has started. A worker forked from the client
    (the command line's LocalCluster, docs/fleet.md item 17) inherits the
    C library's heap as the client set it up, before the nanny put Dask's
    MALLOC_TRIM_THRESHOLD_ into the environment, which glibc reads only
    when a process starts: set here, as a spawned worker has it, so that
    a fork and a spawn give back freed heap alike."""
    import ctypes
    import os

    value = os.environ.get("MALLOC_TRIM_THRESHOLD_")
    if not value or not value.isdigit():
        return
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    M_TRIM_THRESHOLD = -1
    if libc.mallopt(M_TRIM_THRESHOLD, int(value)) == 1:
        global TRIM_THRESHOLD
        TRIM_THRESHOLD = int(value)


TRIM_THRESHOLD = None  # what dask_setup set, once it has (tests)

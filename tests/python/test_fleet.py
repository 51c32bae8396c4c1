"""asys fleet on dask.distributed: the merged table equals asys stats on one
report, and on two reports the values worked out here from the kernels of
both (their trace rows, an independent path); faults and bad input."""

import os
import subprocess
import sys
from collections import defaultdict
from math import isqrt

import pytest

import asys
from asys import fleet
from asys.fleet.tasks import DIE_ONCE
from conftest import CLI, run_cli

MERGEABLE = [r["name"] for r in asys.report._RULES.values() if r["mergeable"]]
COMMAND = {r["name"]: r["command"] for r in asys.report._RULES.values()}


def cli_table(spec, *paths):
    """`asys stats` (or `asys analyze`, for its rules) of RULE[:OPT...]: the reference."""
    return run_cli(COMMAND[spec.split(":")[0]], "-r", spec, *paths).stdout


@pytest.fixture(scope="module")
def client():
    c = fleet.cluster_client(local=2)
    yield c
    cluster = c.cluster
    c.close()
    cluster.close()


def fleet_cli(*args, env=None):
    return subprocess.run([CLI, "fleet", "stats", *args], capture_output=True, env=env)


def frame_bytes(frame):
    return asys.to_csv(frame).encode("utf-8", "surrogateescape")


def test_one_report_equals_asys_stats(client, demo_pair):
    tables = fleet.stats([demo_pair[0]], MERGEABLE, client=client)
    for rule in MERGEABLE:
        assert frame_bytes(tables[rule]) == cli_table(rule, demo_pair[0]), rule


def percent1(part, whole):
    # Half away from zero, in integers (docs/output-conventions.md).
    q, r = divmod(part * 1000, whole)
    return (q + (1 if 2 * r >= whole else 0)) / 10


def kernel_summary_from_traces(reports):
    """hggc_ppu_kern_sum of all the reports' kernels, computed here from the
    kernel rows of their hggc_ppu_trace (rows with a grid)."""
    durations = defaultdict(list)
    for path in reports:
        with asys.open(path) as r:
            trace = r.stats("hggc_ppu_trace")
        kernels = trace[trace["GrdX"].notna()]
        for name, d in zip(kernels["Name"], kernels["Duration (ns)"]):
            durations[name].append(int(d))
    whole = sum(sum(v) for v in durations.values())
    rows = []
    for name, v in durations.items():
        v.sort()
        n, t = len(v), sum(v)
        med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) // 2
        sd = isqrt(n * sum(x * x for x in v) - t * t) // n if n > 1 else 0
        rows.append((percent1(t, whole), t, n, t // n, med, v[0], v[-1], sd, name))
    rows.sort(key=lambda row: (-row[1], row[8]))
    return rows


def test_two_reports_equal_their_kernels_counted_here(client, demo_pair):
    table = fleet.stats(list(demo_pair), ["hggc_ppu_kern_sum"], client=client)["hggc_ppu_kern_sum"]
    got = [tuple(row) for row in table.itertuples(index=False)]
    got = [(float(r[0]),) + tuple(int(x) for x in r[1:8]) + (str(r[8]),) for r in got]
    assert got == kernel_summary_from_traces(demo_pair)


def test_the_command_line_and_a_killed_worker(tmp_path, demo_pair):
    expected = fleet_cli("--local", "2", "-r", "hggc_ppu_kern_sum", *demo_pair)
    assert expected.returncode == 0, expected.stderr
    env = dict(os.environ, **{DIE_ONCE: str(tmp_path / "died")})
    faulted = fleet_cli("--local", "2", "-r", "hggc_ppu_kern_sum", *demo_pair, env=env)
    assert (tmp_path / "died").exists(), "no worker died: the fault was not injected"
    assert faulted.returncode == 0, faulted.stderr
    assert faulted.stdout == expected.stdout


def _processes_with(mark):
    """The processes whose environment holds ``mark`` (this user's)."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % pid, "rb") as f:
                if mark.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


@pytest.mark.parametrize("fault", [False, True])
def test_the_command_line_ends_its_workers_and_leaves_nothing(tmp_path, demo_pair, fault):
    """The command line kills its LocalCluster's workers once its output is
    written (no graceful close): afterwards no process of the run is left
    (a worker, a restarted one after a kill, multiprocessing's resource
    tracker), its scratch folder is gone and nothing was warned about
    leaked semaphores."""
    import time
    import uuid

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    mark = "asys-fleet-test-%s" % uuid.uuid4().hex
    env = dict(os.environ, TMPDIR=str(scratch), ASYS_FLEET_TEST_MARK=mark)
    if fault:
        env[DIE_ONCE] = str(tmp_path / "died")
    done = fleet_cli("--local", "2", "-r", "hggc_ppu_kern_sum,hggc_api_sum", *demo_pair, env=env)
    assert done.returncode == 0, done.stderr
    assert fault == (tmp_path / "died").exists()
    assert done.stdout.startswith(b"# hggc_ppu_kern_sum\n")
    err = done.stderr.decode()
    assert "resource_tracker" not in err and "leaked" not in err, err
    deadline = time.monotonic() + 10
    while _processes_with(mark) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _processes_with(mark) == []
    assert list(scratch.iterdir()) == []


def test_a_command_line_scheduler_with_two_workers(tmp_path, demo_pair):
    python = os.path.join(os.path.dirname(sys.executable), "python")
    scheduler_file = str(tmp_path / "scheduler.json")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    scheduler = subprocess.Popen([python, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", scheduler_file], **quiet)
    workers = None
    try:
        for _ in range(200):
            if os.path.exists(scheduler_file):
                break
            subprocess.run(["sleep", "0.05"])
        workers = subprocess.Popen([python, "-m", "distributed.cli.dask_worker", "--scheduler-file", scheduler_file,
                                    "--nworkers", "2", "--nthreads", "1", "--no-dashboard"], **quiet)
        import json
        with open(scheduler_file) as f:
            address = json.load(f)["address"]
        from distributed import Client
        with Client(address) as c:
            c.wait_for_workers(2, timeout=60)
        done = fleet_cli("--scheduler", address, "-r", ",".join(MERGEABLE), *demo_pair)
        assert done.returncode == 0, done.stderr
        local = fleet_cli("--local", "2", "-r", ",".join(MERGEABLE), *demo_pair)
        assert done.stdout == local.stdout and done.stdout.count(b"# ") == len(MERGEABLE)
    finally:
        for p in (workers, scheduler):
            if p is not None:
                p.terminate()
                p.wait(timeout=30)


@pytest.mark.parametrize("rule,why", [
    ("hggc_ppu_trace", "is a trace"),
    ("ppu_kernel_summary_compare", "compares two reports"),
    ("ppu_op_breakdown", "does not run in asys fleet"),
    ("ppu_op_kernel_breakdown", "does not run in asys fleet"),
    ("ppu_op_unit_test", "does not run in asys fleet"),
    ("device_memory_usage_detail", "does not run in asys fleet"),
    ("ppu_time_util:range-mode=full", "no report knows alone"),
    ("no_such_rule", "unknown rule"),
    ("hggc_ppu_kern_sum:device=0", "names one report's ids"),
])
def test_refusals_in_one_line(demo_pair, rule, why):
    done = fleet_cli("--local", "1", "-r", rule, *demo_pair)
    assert done.returncode != 0 and done.stdout == b""
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and why in lines[0], done.stderr


def test_a_bad_report_fails_or_is_skipped(tmp_path, demo_pair):
    bad = tmp_path / "rank-9.asysrep"
    bad.write_bytes(b"not a report")
    failed = fleet_cli("--local", "1", "-r", "hggc_ppu_kern_sum", demo_pair[0], str(bad))
    assert failed.returncode == 1 and failed.stdout == b""
    assert str(bad) in failed.stderr.decode().strip().splitlines()[-1]
    skipped = fleet_cli("--local", "1", "--skip-bad", "-r", "hggc_ppu_kern_sum", demo_pair[0], str(bad))
    assert skipped.returncode == 0, skipped.stderr
    assert ("skipped " + str(bad)) in skipped.stderr.decode()
    assert skipped.stdout == run_cli("stats", "-r", "hggc_ppu_kern_sum", demo_pair[0]).stdout


def test_output_files_are_whole_and_kept(tmp_path, demo_pair):
    out = str(tmp_path) + "/job"
    done = fleet_cli("--local", "1", "--per-rank", "--output", out, "-r", "hggc_api_sum", *demo_pair)
    assert done.returncode == 0, done.stderr
    merged = tmp_path / "job_hggc_api_sum.csv"
    per_rank = tmp_path / "job_hggc_api_sum_demo-base.csv"
    assert per_rank.read_bytes() == run_cli("stats", "-r", "hggc_api_sum", demo_pair[0]).stdout
    assert merged.exists() and not list(tmp_path.glob("*.partial"))
    before = merged.read_bytes()
    again = fleet_cli("--local", "1", "--output", out, "-r", "hggc_api_sum", *demo_pair)
    assert again.returncode == 2 and "exists" in again.stderr.decode()
    assert merged.read_bytes() == before


def test_forked_workers_answer_as_spawned_ones_and_trim_their_heap(demo_pair):
    """The command line's LocalCluster forks its workers from the client
    (cluster_client's fork_after): each one sets Dask's malloc trim
    threshold itself (lean_worker.dask_setup: a forked process does not
    read MALLOC_TRIM_THRESHOLD_ from its environment), and the tables are a
    spawned cluster's."""
    import threading

    imported = threading.Event()
    imported.set()
    forked = fleet.cluster_client(local=2, fork_after=imported)
    try:
        def probe():
            from asys.fleet import lean_worker
            return lean_worker.TRIM_THRESHOLD
        assert set(forked.run(probe).values()) == {65536}
        tables = fleet.stats(list(demo_pair), ["hggc_ppu_kern_sum", "hgtx_sum"], client=forked)
        for rule, frame in tables.items():
            assert frame_bytes(frame) == frame_bytes(fleet.stats(list(demo_pair), [rule], local=1)[rule]), rule
    finally:
        cluster = forked.cluster
        forked.close()
        cluster.close()

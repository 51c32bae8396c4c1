"""Issue 22's exactness target: on 16 rank reports of one job
(asys gen --ranks 16), every fleet rule's CSV equals asys stats on their
asys merge, byte for byte, on a LocalCluster of 2 processes and after a
worker is killed mid-run. (A command-line scheduler with 2 workers is
test_fleet.py's.)"""

import os
import subprocess

import pytest

from asys.fleet.tasks import DIE_ONCE
from conftest import CLI, run_cli
from test_fleet import MERGEABLE, cli_table

RANKS = 16
# Every mergeable rule once; some with the options that give them rows on
# these reports (ppu_gaps's default 500 ms finds no gap) or other keys.
OPTIONS = {"ppu_gaps": "ppu_gaps:gap=0", "hgtx_kern_sum": "hgtx_kern_sum:standalone",
           "device_memory_usage_summary": "device_memory_usage_summary:usage-mode=alloc-size"}
RULES = [OPTIONS.get(rule, rule) for rule in MERGEABLE]
# Options that change what a rule's state must carry: range-mode=full's
# range (the capture's, merged as asys merge merges it), another order.
OTHER_OPTIONS = ["hgtx_ppu_proj_sum:range-mode=full", "ppu_op_sum:order-by=compute-util",
                 "pccl_op_sum:no-graph-mapping"]


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    out = tmp_path_factory.mktemp("job")
    run_cli("gen", "--ranks", str(RANKS), "--seed", "5", "--scale", "0.2", "--out-dir", str(out))
    ranks = sorted(str(p) for p in out.glob("*.asysrep"))
    assert len(ranks) == RANKS, ranks
    merged = str(tmp_path_factory.mktemp("merged") / "all.asysrep")
    run_cli("merge", *ranks, "-o", merged)
    return ranks, merged


def expected(merged, rules=RULES):
    framed = b""
    for spec in rules:
        framed += ("# %s\n" % spec.split(":")[0]).encode() + cli_table(spec, merged) + b"\n"
    return framed


def test_sixteen_ranks_equal_their_merge(job):
    ranks, merged = job
    done = subprocess.run([CLI, "fleet", "stats", "--local", "2", "-r", ",".join(RULES), *ranks],
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected(merged)


def test_and_after_a_worker_is_killed(job, tmp_path):
    ranks, merged = job
    env = dict(os.environ, **{DIE_ONCE: str(tmp_path / "died")})
    done = subprocess.run([CLI, "fleet", "stats", "--local", "2", "-r", ",".join(RULES), *ranks],
                          capture_output=True, env=env)
    assert (tmp_path / "died").exists()
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected(merged)


def test_and_with_options_that_change_the_state(job):
    ranks, merged = job
    done = subprocess.run([CLI, "fleet", "stats", "--local", "2", "-r", ",".join(OTHER_OPTIONS), *ranks],
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected(merged, OTHER_OPTIONS)

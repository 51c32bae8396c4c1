"""Shared fixtures of the Python package's tests: the native CLI (the
reference every DataFrame is checked against), the demo pair and small
reports built from the golden fixtures."""

import os
import sqlite3
import subprocess

import pytest

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = os.environ.get("ASYS_CLI", os.path.join(CHECKOUT, "build", "native", "asys"))
DEMO = os.path.join(CHECKOUT, "public", "demo")


def run_cli(*args, check=True):
    done = subprocess.run([CLI, *args], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError("asys %s: exit %d: %s" % (" ".join(args), done.returncode, done.stderr.decode()))
    return done


@pytest.fixture(scope="session")
def demo_pair():
    base, slow = os.path.join(DEMO, "demo-base.asysrep"), os.path.join(DEMO, "demo-slow.asysrep")
    assert os.path.exists(base) and os.path.exists(slow), "no demo reports: run scripts/build.sh"
    return base, slow


@pytest.fixture(scope="session")
def edge_report(tmp_path_factory):
    """tests/golden/fixtures/edge.sql as a report: timestamps near 1.7e18,
    past a double's 2^53, and durations whose squares overflow int64."""
    path = str(tmp_path_factory.mktemp("edge") / "edge.asysrep")
    with open(os.path.join(CHECKOUT, "tests", "golden", "fixtures", "edge.sql")) as sql:
        db = sqlite3.connect(path)
        db.executescript(sql.read())
        db.close()
    return path

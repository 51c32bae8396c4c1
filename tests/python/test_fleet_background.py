"""fleet.background.in_thread: the engine's calls in a thread of their own
while the run goes on, and a process that ends while one still runs."""

import subprocess
import sys

import pytest

from asys.fleet.background import in_thread

# A child that starts the engine's text ranks of 300 k texts in a thread and
# ends at once, with 3 M objects for the interpreter to free as it
# finalizes: the ranks (~0.1 s) end in the middle of the finalization.
# As a daemon thread that aborted the child in 3 of 3 runs (status 134,
# "terminate called without an active exception").
ENDS_WHILE_RANKING = """
import numpy as np
from asys import _asys
from asys.fleet.background import in_thread
n = 300000
texts = [b"range %d" % ((i * 7919) % n) for i in range(n)]
offsets = np.zeros(n + 1, dtype=np.int64)
offsets[1:] = np.cumsum([len(t) for t in texts])
garbage = [{"k": i} for i in range(3000000)]
in_thread("asys-fleet-ranks", _asys.text_ranks, b"".join(texts), offsets)
print("started", flush=True)
"""


def test_a_process_ending_while_the_engine_runs_in_a_thread_exits_cleanly():
    done = subprocess.run([sys.executable, "-c", ENDS_WHILE_RANKING], capture_output=True, timeout=120)
    assert done.stdout == b"started\n"
    assert b"terminate" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr


def test_the_result_and_the_error_reach_the_caller():
    assert in_thread("sum", sum, [1, 2, 3])() == 6
    with pytest.raises(ZeroDivisionError):
        in_thread("divide", lambda: 1 // 0)()

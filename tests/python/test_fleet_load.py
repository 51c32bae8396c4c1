"""A report's load task leaves its states shrunk and its summaries packed
(docs/fleet.md, "Worker memory"): a worker that loads its next report
before this one's head has run holds the packed summaries beside that load,
not the unpacked keys and texts. The head sends them once."""

import numpy as np
import pytest

from asys._options import run_settings
from asys.fleet import tasks, wire
from asys.fleet.state import ReportState
from asys.report import AsysError, Report
RULES = ["hgtx_sum", "hggc_ppu_kern_sum", "osrt_sum"]


def test_load_packs_the_summaries_and_shrinks_the_states(demo_pair, tmp_path):
    base, _slow = demo_pair
    loaded = tasks.load(base, [(r, run_settings({})) for r in RULES], None)
    assert loaded.error is None and loaded.summarized
    for rule in RULES:
        state = loaded.states[rule]
        assert isinstance(state, ReportState)
        assert state.texts is None and state.pool is None  # shrunk: only what the rounds read
        # The packed summary is the one a state made apart gives.
        with Report(base) as report:
            fresh = ReportState(report, rule, run_settings({}))
        _same(wire.expand(tasks.unpack(loaded.packed[rule])), wire.expand(wire.compact(fresh.summary())))
    head = tasks.head(loaded)
    assert set(head["summaries"]) == set(RULES)
    assert loaded.packed is None  # sent: the head's result alone keeps them
    with pytest.raises(AsysError):
        tasks.head(loaded)


def test_a_report_that_cannot_be_opened_has_no_summaries(tmp_path):
    bad = tmp_path / "bad.asysrep"
    bad.write_bytes(b"not a report")
    loaded = tasks.load(str(bad), [("osrt_sum", run_settings({}))], None)
    assert loaded.error is not None and loaded.packed is None
    assert "error" in tasks.head(loaded)


def _same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for k in a:
            _same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same(x, y)
    elif isinstance(a, np.ndarray):
        assert np.array_equal(a, np.asarray(b))
    else:
        assert a == b


def test_a_workers_usage_before_a_run_is_noted_at_its_first_load_of_it(demo_pair, monkeypatch):
    # usage() counted by hand: the n-th call gives (n, n).
    calls = []

    def counted():
        calls.append(1)
        return len(calls), len(calls)

    monkeypatch.setattr(tasks, "usage", counted)
    monkeypatch.setattr(tasks, "_RUN_START", {})
    base, slow = demo_pair
    jobs = [("osrt_sum", run_settings({}))]
    tasks.load(base, jobs, None, run="a")   # call 1: the run's start
    tasks.load(slow, jobs, None, run="a")   # noted already
    tasks.load(base, jobs, None)            # no run: nothing noted
    assert tasks.usage_in_run("a") == ((1, 1), (2, 2))
    # Given back once; a run this worker loaded nothing of starts now.
    assert tasks.usage_in_run("a") == ((3, 3), (3, 3))
    assert tasks._RUN_START == {}

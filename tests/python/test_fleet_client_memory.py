"""A fleet run whose summaries cannot fit in the client stops as the first
heads arrive, in one line; one that fits runs as before."""

import numpy as np
import pytest

from asys.fleet import client_memory
from asys.fleet.client_memory import NEEDED_PER_SUMMARY_BYTE, OVERRIDE, Guard, held_bytes
from asys.report import AsysError
from test_fleet import fleet_cli


def test_held_bytes_counts_arrays_and_byte_strings_however_nested():
    summary = {"count": np.zeros(10, dtype=np.int64), "pool": (b"abcdef", np.zeros(7, dtype=np.int32)),
               "texts": [np.zeros(3, dtype=np.uint8)], "id_kinds": ["kPid"], "spans": False}
    assert held_bytes(summary) == 80 + 6 + 28 + 3


def _reports(tmp_path, sizes):
    paths = []
    for i, size in enumerate(sizes):
        p = tmp_path / ("rank-%d.asysrep" % i)
        p.write_bytes(b"x" * size)
        paths.append(str(p))
    return paths


def test_the_run_is_projected_by_report_bytes_and_refused_past_what_is_available(tmp_path):
    # Four reports of 100, 100, 200 and 600 bytes: a first head of 30 bytes
    # from a 100-byte report projects 300 bytes of summaries for the run.
    paths = _reports(tmp_path, [100, 100, 200, 600])
    fits = Guard(paths, NEEDED_PER_SUMMARY_BYTE * 300)
    fits.add(0, {"hgtx_sum": 25, "osrt_sum": 5})
    with pytest.raises(AsysError) as e:
        Guard(paths, NEEDED_PER_SUMMARY_BYTE * 300 - 1).add(0, {"hgtx_sum": 25, "osrt_sum": 5})
    message = str(e.value)
    assert "\n" not in message
    assert "(hgtx_sum: " in message and "1 of 4 reports" in message and OVERRIDE in message
    # The 600-byte report's head of 90 lowers it: 120 bytes from 700 of the
    # 1000 report bytes project 171.
    fits.add(3, {"hgtx_sum": 80, "osrt_sum": 10})
    # Then 320 bytes from 900 project 356: past the 300 that fit.
    with pytest.raises(AsysError):
        fits.add(2, {"hgtx_sum": 200, "osrt_sum": 0})


def test_without_a_known_limit_nothing_is_refused(tmp_path):
    guard = Guard(_reports(tmp_path, [10, 10]), None)
    guard.add(0, {"hgtx_sum": 10**15})
    guard.add(1, {"hgtx_sum": 10**15})


def test_the_override_must_be_bytes(monkeypatch):
    monkeypatch.setenv(OVERRIDE, "2G")
    with pytest.raises(AsysError, match=OVERRIDE):
        client_memory.available_bytes()
    monkeypatch.setenv(OVERRIDE, "12345")
    assert client_memory.available_bytes() == 12345


def test_this_machine_reports_what_is_available(monkeypatch):
    monkeypatch.delenv(OVERRIDE, raising=False)
    available = client_memory.available_bytes()
    assert available is not None and available > 0


def test_the_command_line_stops_a_run_that_cannot_fit_in_one_line(demo_pair):
    import os

    small = fleet_cli("--local", "1", "-r", "hggc_ppu_kern_sum,hgtx_sum", *demo_pair,
                      env=dict(os.environ, **{OVERRIDE: "1000"}))
    assert small.returncode == 1 and small.stdout == b""
    lines = small.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("asys fleet: the merged summaries would need"), lines
    assert "of 2 reports" in lines[0]
    # Room enough: the same table as a run that checks against what the machine has.
    enough = fleet_cli("--local", "1", "-r", "hgtx_sum", *demo_pair, env=dict(os.environ, **{OVERRIDE: str(10**12)}))
    assert enough.returncode == 0, enough.stderr
    plain = fleet_cli("--local", "1", "-r", "hgtx_sum", *demo_pair)
    assert plain.returncode == 0, plain.stderr
    assert enough.stdout.startswith(b"Row#,") and enough.stdout == plain.stdout
    bad = fleet_cli("--local", "1", "-r", "hgtx_sum", *demo_pair, env=dict(os.environ, **{OVERRIDE: "lots"}))
    assert bad.returncode == 2 and bad.stderr.decode().strip() == \
        "asys fleet: %s must be a number of bytes, not 'lots'" % OVERRIDE

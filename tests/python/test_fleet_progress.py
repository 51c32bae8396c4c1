"""asys fleet's progress line: on a terminal, the reports loaded and the
phase after them, erased before the output; nothing anywhere else."""

import io
import os
import pty
import subprocess

from asys.fleet import progress
from asys.fleet.progress import Progress
from conftest import CLI
from test_fleet import fleet_cli

ERASE = "\r\033[K"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_on_a_terminal_each_state_overwrites_the_last_and_the_counts_are_spaced(monkeypatch):
    clock = [99.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    out = Terminal()
    p = Progress(out, 5)
    p.phase("starting the workers")
    for done, at in zip(range(1, 6), (100.0, 100.1, 100.25, 100.3, 100.31)):
        clock[0] = at
        p.loaded(done)
    p.phase("median round 1")
    p.clear()
    p.clear()  # once erased, nothing more
    # 2/5 and 4/5 came within 0.2 s of the last write; the last count is always shown.
    assert out.getvalue() == "".join(ERASE + "asys fleet: " + t for t in (
        "starting the workers", "1/5 reports loaded", "3/5 reports loaded", "5/5 reports loaded",
        "median round 1")) + ERASE


def test_anywhere_but_a_terminal_nothing_is_written():
    out = io.StringIO()
    p = Progress(out, 3)
    p.phase("starting the workers")
    for done in (1, 2, 3):
        p.loaded(done)
    p.clear()
    assert out.getvalue() == ""


def test_the_command_line_on_a_terminal_shows_it_and_erases_it_before_the_tables(demo_pair):
    args = ["--local", "1", "-r", "hggc_ppu_kern_sum,hgtx_sum", *demo_pair]
    plain = fleet_cli(*args)
    assert plain.returncode == 0 and plain.stderr == b""
    main, tty = pty.openpty()
    try:
        done = subprocess.run([CLI, "fleet", "stats", *args], stdout=subprocess.PIPE, stderr=tty, timeout=300)
        os.close(tty)
        tty = None
        shown = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other side closed: all read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(main)
        if tty is not None:
            os.close(tty)
    assert done.returncode == 0
    assert done.stdout == plain.stdout  # the tables as without a terminal
    text = shown.decode()
    for state in ("starting the workers", "2/2 reports loaded", "merging the reports' groups", "making the tables"):
        assert ERASE + "asys fleet: " + state in text, text
    assert text.endswith(ERASE), text  # erased: nothing is left on the line

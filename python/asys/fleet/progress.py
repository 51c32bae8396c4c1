"""Where a fleet run is, on one line of a terminal: the reports loaded so
far, then the phase after them (a 1000-rank run loads for minutes, and
said nothing until its tables). Written only when the stream is a
terminal, at most every ``EVERY`` seconds, each state over the last one
(carriage return, erase the line), and erased before anything else is
written (``clear``): a log, a pipe or a file gets nothing from it."""

import time

EVERY = 0.2  # s between two writes: a terminal line, not a flood of them
_ERASE = "\r\033[K"


class Progress:
    """As a context manager: the line erased on the way out, before an
    error's handler or the output writes anything."""

    def __init__(self, stream, total):
        self._stream, self._total = stream, total
        try:
            self._on = stream.isatty()
        except (AttributeError, ValueError, OSError):
            self._on = False
        self._shown = False
        self._last = -EVERY

    def loaded(self, done):
        """``done`` of the run's reports are in (the last one always shown)."""
        if self._on and (done == self._total or time.monotonic() - self._last >= EVERY):
            self._show("%d/%d reports loaded" % (done, self._total))

    def phase(self, text):
        if self._on:
            self._show(text)

    def clear(self):
        """The line erased: what is written next starts a clean line."""
        if self._shown:
            self._write(_ERASE)
            self._shown = False

    def __enter__(self):
        return self

    def __exit__(self, *_exc):
        self.clear()

    def _show(self, text):
        self._write(_ERASE + "asys fleet: " + text)
        self._shown = True
        self._last = time.monotonic()

    def _write(self, text):
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            self._on = False


# A run without a progress line (the Python API's, the tests'): no stream,
# so never on and never changed.
SILENT = Progress(None, 0)

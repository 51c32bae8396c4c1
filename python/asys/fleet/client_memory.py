"""Whether the merged summaries can fit in the client, told as the first
heads arrive rather than as the client runs out of memory minutes later.

The client holds every report's summary of every rule until the merge,
and the merge and its table take more again: on the bench's 32 ranks
hgtx_sum's summaries are 68 MB expanded and the client's peak grew by
230 MB (3.4x). A rule whose groups the ranks share (kernels, APIs) sends a
few hundred groups a report; one whose names are each rank's own
(hgtx_sum on PyTorch's per-operator range names) sends every name, and at
a thousand ranks of 2 GB that is ~100 GB (docs/fleet.md, "A 1000-rank job
of 2 GB reports, on paper"). So each head's summaries are counted as they
arrive, the whole run's projected from the report bytes read so far, and
a run whose summaries alone would need more than half of what the client
has available is stopped in one line."""

import os

from ..report import AsysError

# The run is refused when this many times its projected summaries pass
# what the client has available: the summaries must fit, and the merge
# and its table need more again (the client's peak grew by 3.4x its
# summaries, above), so 2x refuses only a run that cannot finish.
NEEDED_PER_SUMMARY_BYTE = 2

# The bytes the client may use, set by hand (a limit the system does not
# report, or a test's): digits only.
OVERRIDE = "ASYS_FLEET_CLIENT_MEMORY"


def available_bytes():
    """What this process may still take: MemAvailable, and the cgroup's
    limit less its usage where one is set (a container); ASYS_FLEET_CLIENT_MEMORY
    when set. None where none of these can be read."""
    override = os.environ.get(OVERRIDE)
    if override is not None:
        if not override.isdigit():
            raise AsysError("%s must be a number of bytes, not '%s'" % (OVERRIDE, override))
        return int(override)
    found = []
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read().strip())
        if limit.isdigit():
            found.append(max(0, int(limit) - used))
    except (OSError, ValueError):
        pass
    return min(found) if found else None


def held_bytes(value):
    """The bytes of the arrays and byte strings in a summary (nested dicts,
    lists and tuples of them)."""
    if hasattr(value, "nbytes"):
        return int(value.nbytes)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return len(value)
    if isinstance(value, dict):
        return sum(held_bytes(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return sum(held_bytes(v) for v in value)
    return 0


def _size(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _size_text(n):
    return "%.1f GB" % (n / 1e9) if n >= 1e9 else "%.1f MB" % (n / 1e6)


class Guard:
    """The heads' summaries counted as they arrive, against ``available``
    bytes (None: no check)."""

    def __init__(self, paths, available):
        self.available = available
        self.sizes = [_size(p) for p in paths]
        self.total = sum(self.sizes)
        self.read = 0  # report bytes whose heads are in
        self.arrived = 0
        self.by_rule = {}

    def add(self, report, held):
        """``held``: per rule (or what else a head keeps) the bytes its
        summary holds here; raises AsysError if the run cannot fit."""
        self.arrived += 1
        self.read += self.sizes[report]
        for rule, n in held.items():
            self.by_rule[rule] = self.by_rule.get(rule, 0) + n
        if self.available is None:
            return
        # Projected by report bytes (reports of one job differ in size),
        # or by count where the sizes are unknown.
        done, whole = (self.read, self.total) if self.read else (self.arrived, len(self.sizes))
        projected = {rule: n * whole / done for rule, n in self.by_rule.items()}
        needed = NEEDED_PER_SUMMARY_BYTE * sum(projected.values())
        if needed <= self.available:
            return
        largest = max(projected, key=projected.get)
        raise AsysError(
            "the merged summaries would need at least %s on this client (%s: %s from %d of %d reports), more than "
            "the %s it has available: run fewer reports or rules at a time, or set %s to the bytes it may use"
            % (_size_text(needed), largest, _size_text(self.by_rule[largest]), self.arrived, len(self.sizes),
               _size_text(self.available), OVERRIDE))

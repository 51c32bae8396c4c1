"""The rules and options asys fleet refuses, each in one line that says why
(docs/fleet.md, "What it runs"). Apart from run.py so that the command line
checks its arguments before it imports pandas and starts the cluster."""

from .. import _asys
from ..report import AsysError

_RULES = {r["name"]: r for r in _asys.rules()}


def check_job(name, settings):
    """Refuses, in one line that says why, a rule the fleet cannot merge, or
    an option that means another thing on every report."""
    check_rule(name)
    for item in settings[0]:
        if (name, item) in NOT_MERGED_OPTIONS:
            raise AsysError("%s: option '%s' does not run in asys fleet: %s" % (name, item, NOT_MERGED_OPTIONS[(name, item)]))
        option = item.split("=", 1)[0]
        if option in ID_OPTIONS:
            raise AsysError("%s: option '%s' names one report's ids, which differ from rank to rank; "
                            "asys fleet takes no %s option" % (name, item, option))


def check_rule(name):
    """Refuses, in one line that says why, a rule the fleet cannot merge."""
    rule = _RULES.get(name)
    if rule is None:
        raise AsysError("unknown rule '%s' (asys stats --help-reports lists the rules)" % name)
    if rule["compare"]:
        raise AsysError("'%s' compares two reports, not a fleet of ranks" % name)
    if name.endswith("_trace") and not rule["mergeable"]:
        raise AsysError("'%s' is a trace: it lists every event of every report, nothing merges; run it per report "
                        "(asys stats) or on one report of asys merge" % name)
    if name in NOT_MERGED:
        raise AsysError("'%s' does not run in asys fleet: %s; run it on one report of asys merge" % (name, NOT_MERGED[name]))
    if not rule["mergeable"]:
        raise AsysError("'%s' has no mergeable state (docs/fleet.md lists the rules asys fleet runs)" % name)
    return rule


# The rules with no mergeable state, and why (docs/fleet.md).
_BREAKDOWN = ("not built: its rows would add up across reports, but the rule gives its framework -> library -> "
              "kernel paths only as ids of one report's own operator set and string pool, and writes its table from "
              "them (docs/fleet.md, \"Refused, and why\")")
NOT_MERGED = {
    "device_memory_usage_detail": "it lists every allocation of every report, as a trace does",
    "ppu_op_kernel_breakdown": _BREAKDOWN,
    "ppu_op_breakdown": _BREAKDOWN,
    "ppu_op_unit_test": "it writes one test per operator instance, as a trace does",
}

# Options whose table a fleet cannot merge, and why.
NOT_MERGED_OPTIONS = {
    ("ppu_time_util", "range-mode=full"): ("range-mode=full divides the capture range of all the reports together, "
                                           "which no report knows alone, and the rule gives out only its chunks "
                                           "(docs/fleet.md, \"Refused, and why\")"),
}


# Options that name a report's own ids: every report has its own id space,
# and asys merge renumbers them, so the same id means another thing.
ID_OPTIONS = ("device", "process", "thread")

"""An open report and the rules run on it."""

import os
import tempfile
import warnings

from . import _asys
from ._options import run_settings

AsysError = _asys.AsysError
MissingDataError = _asys.MissingDataError


class RuleWarning(UserWarning):
    """Input a rule had to leave out (the CLI's ``warning:`` lines)."""


_RULES = {r["name"]: r for r in _asys.rules()}


def _rule(name, command):
    rule = _RULES.get(name)
    if rule is None:
        raise AsysError("unknown rule '%s' (asys.rules() lists the rules)" % name)
    if rule["compare"]:
        raise AsysError("'%s' compares two reports: run it with asys.compare(base, target, '%s')" % (name, name))
    if command and rule["command"] != command:
        other = rule["command"]
        raise AsysError("'%s' is a rule of asys %s (run it with Report.%s)" % (name, other, other))
    return rule


def _framed(result, rule):
    from ._frame import frame_of  # pandas, only where a DataFrame is made

    frame = frame_of(result, rule)
    for text in frame.attrs["warnings"]:
        warnings.warn("%s: %s" % (rule, text), RuleWarning, stacklevel=3)
    return frame


class Report:
    """One report: an asysrep, an Nsight Systems SQLite export, or the rank
    files of one PyTorch/Kineto trace (imported into a temporary asysrep)."""

    def __init__(self, paths):
        if isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        self.paths = [os.fspath(p) for p in paths]
        self._engine = _asys.Report(self.paths, tempfile.gettempdir())

    def __repr__(self):
        return "asys.Report(%r)" % (self.paths[0] if len(self.paths) == 1 else self.paths)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Releases the report's file and loaded tables."""
        self._engine.close()

    def run(self, rule, command=None, /, **options):
        """The table of any one-report rule (``stats`` or ``analyze``)."""
        _rule(rule, command)
        items, filter_time, filter_hgtx, global_options = run_settings(options)
        return _framed(self._engine.run(rule, items, filter_time, filter_hgtx, global_options), rule)

    def stats(self, rule, /, **options):
        """``asys stats -r RULE[:OPT...] REPORT`` as a DataFrame."""
        return self.run(rule, "stats", **options)

    def analyze(self, rule=None, /, **options):
        """``asys analyze -r RULE REPORT`` as a DataFrame; without a rule,
        every expert rule, as a dict of DataFrames by rule name."""
        if rule is not None:
            return self.run(rule, "analyze", **options)
        names = [r["name"] for r in _RULES.values() if r["command"] == "analyze" and not r["compare"]]
        return {name: self.run(name, "analyze", **options) for name in names}


def open(path_or_paths):  # noqa: A001 - the package's verb, as in asys.open
    """Opens a report (or several Kineto rank files as one report)."""
    return Report(path_or_paths)


def compare(base, target, rule, /, **options):
    """A compare rule (``asys stats -r RULE BASE TARGET``) as a DataFrame;
    ``base`` and ``target`` are Reports or paths. Time filters apply to each
    report on its own, as on the command line."""
    rule_spec = _RULES.get(rule)
    if rule_spec is None:
        raise AsysError("unknown rule '%s' (asys.rules() lists the rules)" % rule)
    if not rule_spec["compare"]:
        raise AsysError("'%s' reads one report: run it with Report.%s" % (rule, rule_spec["command"]))
    base_report = base if isinstance(base, Report) else Report(base)
    target_report = target if isinstance(target, Report) else Report(target)
    items, filter_time, filter_hgtx, global_options = run_settings(options)
    result = _asys.compare(base_report._engine, target_report._engine, rule, items, filter_time, filter_hgtx,
                           global_options)
    return _framed(result, rule)


def rules(command=None):
    """The rule names, in the CLI's order: all, or those of ``"stats"`` or
    ``"analyze"``."""
    return [r["name"] for r in _RULES.values() if command is None or r["command"] == command]


def rule_help(rule):
    """``asys stats --help-report RULE``."""
    return _asys.rule_help(rule)

"""asys for Python: the same engine as the ``asys`` command line, with each
rule's table as a pandas DataFrame.

    import asys
    report = asys.open("job.asysrep")
    kernels = report.stats("hggc_ppu_kern_sum", filter_time=(0, 5_000_000_000))
    asys.to_csv(kernels)          # the bytes `asys stats -r hggc_ppu_kern_sum` writes

docs/python.md has the whole interface; ``python -m asys.fleet`` runs rules
over many rank reports on Dask (docs/fleet.md).
"""

from .report import AsysError, MissingDataError, Report, RuleWarning, compare, open, rule_help, rules



def __getattr__(name):
    # to_csv needs pandas: imported when first asked for, so that a fleet
    # worker, which makes no DataFrame, never imports pandas (0.9 s of CPU
    # a process; docs/fleet.md, "What the run's time goes to").
    if name == "to_csv":
        from ._frame import to_csv
        return to_csv
    raise AttributeError("module 'asys' has no attribute '%s'" % name)


__all__ = ["AsysError", "MissingDataError", "Report", "RuleWarning", "compare", "open", "rule_help", "rules", "to_csv"]

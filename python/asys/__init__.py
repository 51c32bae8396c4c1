"""asys for Python: the same engine as the ``asys`` command line, with each
rule's table as a pandas DataFrame.

    import asys
    report = asys.open("job.asysrep")
    kernels = report.stats("hggc_ppu_kern_sum", filter_time=(0, 5_000_000_000))
    asys.to_csv(kernels)          # the bytes `asys stats -r hggc_ppu_kern_sum` writes

docs/python.md has the whole interface; ``python -m asys.fleet`` runs rules
over many rank reports on Dask (docs/fleet.md).
"""

from ._frame import to_csv
from .report import AsysError, MissingDataError, Report, RuleWarning, compare, open, rule_help, rules

__all__ = ["AsysError", "MissingDataError", "Report", "RuleWarning", "compare", "open", "rule_help", "rules", "to_csv"]

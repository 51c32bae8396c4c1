"""A rule's table as a pandas DataFrame, and back to the CLI's CSV bytes.

Columns keep the engine's types exactly: integers as ``Int64`` (int64 with
a missing mask, never through float), one-decimal values as ``Float64``,
text as ``string``. A cell that does not apply (the CLI's ``-``) is
``<NA>``. The index is the CLI's ``Row#`` (from 1) and the column names are
its headers, ``Total Time (ns)``.
"""

import os

import numpy as np
import pandas as pd


def frame_of(result, rule):
    """The DataFrame of one answer of the engine (_asys Report.run / compare)."""
    data = {}
    for col in result["columns"]:
        values, missing = col["values"], col["missing"]
        if col["kind"] == "int":
            data[col["header"]] = pd.arrays.IntegerArray(values, missing)
        elif col["kind"] == "decimal1":
            data[col["header"]] = pd.arrays.FloatingArray(values, missing)
        else:
            data[col["header"]] = pd.array(values, dtype="string")
    rows = result["rows"]
    frame = pd.DataFrame(data, index=pd.RangeIndex(1, rows + 1, name="Row#"))
    if len(data) != len(result["columns"]):
        raise ValueError("%s: two columns share a header" % rule)
    frame.attrs["rule"] = rule
    frame.attrs["columns"] = [{k: c[k] for k in ("name", "unit", "kind", "role")} for c in result["columns"]]
    frame.attrs["warnings"] = list(result["warnings"])
    frame.attrs["files"] = dict(result["files"])
    return frame


def _kind(series):
    if pd.api.types.is_integer_dtype(series.dtype):
        return "int"
    if pd.api.types.is_float_dtype(series.dtype):
        return "decimal1"
    return "text"


def _quoted(text):
    return '"' + text.replace('"', '""') + '"'


def _cells(series):
    """The column's CSV cells, as the CLI writes them (docs/output-conventions)."""
    kind = _kind(series)
    missing = series.isna().to_numpy()
    if kind == "int":
        values = series.to_numpy(dtype=np.int64, na_value=0)
        cells = [str(v) for v in values.tolist()]
    elif kind == "decimal1":
        values = series.to_numpy(dtype=np.float64, na_value=0.0)
        cells = ["%.1f" % v for v in values.tolist()]
    else:
        cells = [None if m else _quoted(str(v)) for v, m in zip(series.tolist(), missing)]
    if missing.any():
        for i in np.flatnonzero(missing).tolist():
            cells[i] = '"-"'
    return cells


def to_csv(frame, path=None):
    """The CSV the CLI writes for this table, byte for byte.

    Returns the text when ``path`` is None; otherwise writes ``path`` whole
    or not at all (into ``path.partial`` first, then renamed). Text that was
    not UTF-8 in the report comes back as the same bytes.
    """
    columns = [_cells(frame[name]) for name in frame.columns]
    lines = ["Row#," + "".join(str(name) + "," for name in frame.columns)]
    for row, cells in enumerate(zip(*columns), start=1):
        lines.append(str(row) + "," + "".join(cell + "," for cell in cells))
    if not columns:
        lines.extend(str(row) + "," for row in range(1, len(frame) + 1))
    text = "\n".join(lines) + "\n"
    if path is None:
        return text
    partial = os.fspath(path) + ".partial"
    try:
        with open(partial, "wb") as out:
            out.write(text.encode("utf-8", "surrogateescape"))
        os.replace(partial, path)
    except BaseException:
        if os.path.exists(partial):
            os.remove(partial)
        raise
    return None

"""Keyword arguments to the engine's run settings.

A rule's options are spelled as on the command line (``-r RULE:OPT:OPT=VALUE``)
with ``_`` for ``-``: ``base=True`` is ``base``, ``rows=10`` is ``rows=10``,
``devices=[0, 1]`` is ``devices=0/1``. Three names are not rule options:
``filter_time`` (``"START/END"`` or a ``(start, end)`` pair of ns),
``filter_hgtx`` (``"NAME[@DOMAIN][/INDEX]"``) and the global options
(``callstack_group_config``, ``ppu_op_config``: one entry or a list).
The engine checks every value and names the one it refuses.
"""

from . import _asys

_GLOBAL_OPTIONS = frozenset(_asys.global_option_names())


def _cli_name(keyword):
    return keyword.replace("_", "-")


def _list_item(value):
    # '/' separates a list's items; one inside an item is written '\/'
    # (the engine's RegexList and TextList read it back as '/').
    return str(value).replace("/", "\\/")


def _time_range(value):
    if isinstance(value, (tuple, list)):
        if len(value) != 2:
            raise _asys.AsysError("filter_time: expected (start, end), got %r" % (value,))
        return "%d/%d" % (int(value[0]), int(value[1]))
    return str(value)


def run_settings(options):
    """Splits ``options`` into (rule option items, filter_time, filter_hgtx, globals)."""
    items, global_options = [], []
    filter_time = filter_hgtx = ""
    for keyword, value in options.items():
        name = _cli_name(keyword)
        if keyword == "filter_time":
            filter_time = "" if value is None else _time_range(value)
        elif keyword == "filter_hgtx":
            filter_hgtx = "" if value is None else str(value)
        elif name in _GLOBAL_OPTIONS:
            entries = value if isinstance(value, (list, tuple)) else [value]
            global_options.extend((name, str(entry)) for entry in entries)
        elif value is True:
            items.append(name)
        elif value is False or value is None:
            continue  # a flag not given, an option left at its default
        elif isinstance(value, (list, tuple)):
            items.append(name + "=" + "/".join(_list_item(v) for v in value))
        else:
            items.append("%s=%s" % (name, value))
    return items, filter_time, filter_hgtx, global_options

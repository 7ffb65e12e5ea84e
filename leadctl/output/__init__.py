"""``output/`` turns a command's data into what it prints, in the chosen format.

A command hands its data (the service's decoded JSON, plain dicts, so ``-o json`` can
print fields this version of leadctl does not know about) to :func:`emit_list` or
:func:`emit_object` with its default columns and, when it has one, a *view*: a drawing for
a person (:mod:`leadctl.views` holds those). The registry (:mod:`leadctl.output.registry`)
picks the renderer of the format (:mod:`leadctl.formats` names them once): table,
json, ndjson, csv, tsv, value, or ``--jq``. The view is drawn only for ``table`` without
``--columns``; every other case prints the data itself, so scripts get data, not a picture.

The rest of the package are the renderers' parts: columns and paths (``columns``), cell
text (``cells``), fitting a table to the terminal (``fit``), the writers (``table``,
``json_out``, ``delimited``, ``jq_filter``) and the ``--all`` progress line (``progress``).
All of it works for any data; a drawing that knows one resource's shape is a view and
belongs in ``views/``.

This ``__init__`` stays light: context.py reads the format names from ``formats`` at every
start-up, which loads this package, so the names below load on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leadctl.output.columns import Column, get_path
    from leadctl.output.registry import (
        View,
        columns_view,
        display_zone_of,
        emit_list,
        emit_object,
        prints_as_received,
    )

__all__ = [
    "Column",
    "View",
    "columns_view",
    "display_zone_of",
    "emit_list",
    "emit_object",
    "get_path",
    "prints_as_received",
]

_HOME = {
    "Column": "leadctl.output.columns",
    "get_path": "leadctl.output.columns",
    "View": "leadctl.output.registry",
    "columns_view": "leadctl.output.registry",
    "display_zone_of": "leadctl.output.registry",
    "emit_list": "leadctl.output.registry",
    "emit_object": "leadctl.output.registry",
    "prints_as_received": "leadctl.output.registry",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)

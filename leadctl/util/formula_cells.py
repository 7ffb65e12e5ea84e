"""Spreadsheet formula cells in CSV/TSV exports, and undoing the guard on import.

Lead names and notes come from web forms, so anyone on the internet chooses them. A cell
that begins with ``= + - @`` (or a tab or carriage return, which some spreadsheets skip
before looking) is run as a formula when the export is opened, and a formula can fetch
URLs or run commands (CSV injection, see OWASP). The guard is OWASP's: such a cell gets a
leading ``'``, which spreadsheets read as "this is text" and do not show.

The guard is reversible, so an export imports back unchanged: a cell that already begins
with quotes before such a character gets one more, and :func:`unguarded` removes exactly
one. A plain number (``+15125550123``, ``-12.5``) is left alone: no spreadsheet runs it,
and phone numbers stay readable.
"""

from __future__ import annotations

import re

FORMULA_FIRST = frozenset("=+-@\t\r")
GUARD = "'"
_PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def _begins_a_formula(text: str) -> bool:
    core = text.lstrip(GUARD)
    return bool(core) and core[0] in FORMULA_FIRST


def guarded(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text."""
    if not _begins_a_formula(cell):
        return cell
    if not cell.startswith(GUARD) and _PLAIN_NUMBER.fullmatch(cell):
        return cell
    return GUARD + cell


def unguarded(cell: str) -> str:
    """The value :func:`guarded` was given."""
    if cell.startswith(GUARD) and _begins_a_formula(cell):
        return cell[1:]
    return cell

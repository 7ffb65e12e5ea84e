"""Whether an operation destroys, revokes or changes a secret: ``batch`` of such an
operation takes ``--yes`` once for the whole run (cli.md "Destructive or secret-changing
commands").

Destroying is decided where generated verbs learn to confirm (``contract/destructive.py``,
compiled into the index as ``destructive``); an index compiled before that mark existed is
asked the same rule. Rotating a credential (``sources rotate`` confirms too) counts here
whatever the index says.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.contract.destructive import is_destructive
from leadctl.contract.phones import words_of

SECRET_CHANGING_WORDS = frozenset({"rotate", "rotates"})


def is_destructive_operation(entry: Mapping[str, Any]) -> bool:
    """True for an index entry (``leadctl.contract.index``) whose operation destroys,
    revokes or rotates."""
    operation_id, summary = entry.get("operationId") or "", entry.get("summary") or ""
    if words_of(str(operation_id), str(summary)) & SECRET_CHANGING_WORDS:
        return True
    marked = entry.get("destructive")
    if isinstance(marked, bool):
        return marked
    return is_destructive(str(entry.get("method", "")), str(operation_id), str(summary))

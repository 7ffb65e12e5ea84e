"""Whether an operation destroys, revokes or changes a secret: ``batch`` of such an
operation takes ``--yes`` once for the whole run (cli.md "Destructive or secret-changing
commands").

The one place ``batch`` asks it. The compiled index may carry the answer (``destructive``,
decided where generated verbs learn to confirm); until it does, the rule of cli.md is read
here from the operation itself: every DELETE, and every operation whose operationId or
summary says delete, remove, revoke, archive, cancel or purge (as words). Rotating a
credential (``sources rotate`` confirms too) counts whatever the index says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

DESTRUCTIVE_WORDS = frozenset({"delete", "remove", "revoke", "archive", "cancel", "purge"})
SECRET_CHANGING_WORDS = frozenset({"rotate"})
# Words of an operationId (camelCase, snake_case, kebab-case) or of a summary.
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def is_destructive_operation(entry: Mapping[str, Any]) -> bool:
    """True for an index entry (``leadctl.contract.index``) whose operation destroys,
    revokes or rotates: its own ``destructive`` mark when the index has one, else cli.md's
    rule."""
    words = _words(f"{entry.get('operationId') or ''} {entry.get('summary') or ''}")
    if words & SECRET_CHANGING_WORDS:
        return True
    marked = entry.get("destructive")
    if isinstance(marked, bool):
        return marked
    return str(entry.get("method", "")).upper() == "DELETE" or bool(words & DESTRUCTIVE_WORDS)


def _words(text: str) -> set[str]:
    """The words of ``text``, ``deletes`` as ``delete``; not ``archived`` (a state, as in
    "list archived leads")."""
    found = set()
    for word in _WORD.findall(text):
        lowered = word.lower()
        singular = lowered[:-1] if lowered.endswith("s") else lowered
        known = singular in DESTRUCTIVE_WORDS or singular in SECRET_CHANGING_WORDS
        found.add(singular if known else lowered)
    return found

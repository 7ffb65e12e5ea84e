"""Whether an operation destroys, revokes or changes a secret: ``batch`` of such an
operation takes ``--yes`` once for the whole run (cli.md "Destructive or secret-changing
commands").

Destroying is decided where generated verbs learn to confirm (``contract/destructive.py``,
compiled into the index as ``destructive``). Rotating a credential (``sources rotate``
confirms too) counts here whatever the index says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from leadctl.contract.phones import words_of

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation

SECRET_CHANGING_WORDS = frozenset({"rotate", "rotates"})


def is_destructive_operation(op: Operation) -> bool:
    """True for an operation that destroys, revokes or rotates."""
    return op.destructive or bool(
        words_of(op.operation_id or "", op.summary) & SECRET_CHANGING_WORDS
    )

"""Which operations destroy or take something away, and so ask before they run.

Every DELETE, and any operation whose operationId or summary says delete, remove, revoke,
archive, cancel or purge as a word (``PaymentMethods_Delete``, "Remove a member",
``Sms_CancelScheduled``, "Revokes a key"). Words, not substrings: ``Leads_Unarchive``
restores, "Get archived leads" reads, ``Rerun`` is not ``run``. Only the verb and its
third person count ("archive", "archives"): "archived" and "cancelled" describe what a
read returns. Commands built on such an operation ask on a terminal and need ``--yes``
without one (cli.md); ``batch`` asks once for the whole run.
"""

from __future__ import annotations

from leadctl.contract.phones import words_of

DESTRUCTIVE_VERBS = frozenset({"delete", "remove", "revoke", "archive", "cancel", "purge"})
_THIRD_PERSON = frozenset(f"{verb}s" for verb in DESTRUCTIVE_VERBS)


def is_destructive(method: str, operation_id: str | None, summary: str | None) -> bool:
    """Whether the operation destroys, removes or cancels something (see the module)."""
    if method.upper() == "DELETE":
        return True
    said = words_of(operation_id or "", summary or "")
    return bool(said & (DESTRUCTIVE_VERBS | _THIRD_PERSON))

"""What an operation says it does, from its operationId and summary: a read that creates,
sends, submits, runs or deletes is not safe to send twice (cli.md "Retries").

The verb of an operationId is its first word once a namespace is dropped (``Leads_`` in
ASP.NET's ``Leads_CreateFromQuery``, ``actions/`` in ``actions/get-workflow-run``,
``leads.`` in ``leads.create``); the verb of a summary is its first word. Only the verb
counts: ``GetWorkflowRun`` and "List runs" read runs, ``runReport`` and "Run a report" run
one, and words are whole words (``Transcripts`` holds no "runs"). A re- form acts as well
(``rerunJob``, ``resendInvite``): sending it twice runs or sends twice.
"""

from __future__ import annotations

import re

from leadctl.contract.naming import words

# Without a contract's word (``leadctl api`` on an unknown path, an operation the contract
# says nothing more of): reads, PUT and DELETE may be repeated; a POST or PATCH may have acted.
METHOD_RETRY_SAFE = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})

ACTING_VERBS = frozenset(
    {
        *(f"{prefix}{verb}{ending}" for prefix in ("", "re") for ending in ("", "s")
          for verb in ("create", "send", "submit", "run")),
        "delete", "deletes",
    }
)  # fmt: skip
# ``Tag_Action`` (an upper-case letter after the underscore: ASP.NET), or anything before
# the last ``/`` or ``.``.
_NAMESPACE = re.compile(r"^(?:.*[/.]|[A-Za-z0-9]+_(?=[A-Z]))")


def leading_verb(operation_id: str) -> str | None:
    found = words(_NAMESPACE.sub("", operation_id))
    return found[0] if found else None


def acting_verb(operation_id: str | None, summary: str | None) -> str | None:
    """The word by which the operationId or summary says the operation acts, if one does."""
    verbs = [leading_verb(operation_id) if operation_id else None]
    summary_words = words(summary or "")
    verbs.append(summary_words[0] if summary_words else None)
    return next((verb for verb in verbs if verb in ACTING_VERBS), None)

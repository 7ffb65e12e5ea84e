"""``leadctl status-changes``: update or delete entries of a lead's status history."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl status-changes --help`.
VERBS: tuple[Entry, ...] = (
    Verb("update", "Update an entry of a lead's status history (PUT /lead-status-changes/{id})."),
    Verb(
        "delete",
        "Delete an entry of a lead's status history (DELETE /lead-status-changes/{id}).",
    ),
)

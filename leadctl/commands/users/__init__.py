"""``leadctl users``: the current user's compliance settings."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl users --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "compliance",
        "Update the current user's compliance settings (PUT /users/compliance), or show them.",
    ),
)

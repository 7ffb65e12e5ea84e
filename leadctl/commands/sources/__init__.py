"""``leadctl sources``: update a lead source, rotate its intake key."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl sources --help`.
VERBS: tuple[Entry, ...] = (
    Verb("update", "Update a lead source (PUT /sources/{id}) and print it."),
    Verb("rotate", "Rotate a source's intake key (POST /sources/{id}/credentials/rotate)."),
)

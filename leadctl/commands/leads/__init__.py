"""``leadctl leads``: list the organization's leads and send new ones to intake."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl leads --help`.
VERBS: tuple[Entry, ...] = (
    Verb("list", "List the organization's leads (POST /leads/all/my), newest first unless sorted."),
    Verb("create", "Send one lead to intake (POST /leads) and print its id and processingStatus."),
    Verb(
        "import",
        "Import leads from a CSV or NDJSON file: one POST /leads per row, at the service's pace.",
    ),
)

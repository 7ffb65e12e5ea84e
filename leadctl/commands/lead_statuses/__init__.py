"""``leadctl lead-statuses``: the organization's lead statuses."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl lead-statuses --help`.
VERBS: tuple[Entry, ...] = (
    Verb("list", "List the organization's lead statuses (GET /lead-statuses), in display order."),
    Verb("get", "Show one lead status, found by id or by name (reads GET /lead-statuses)."),
)

"""``leadctl notifications``: announcements for the current user."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl notifications --help`.
VERBS: tuple[Entry, ...] = (
    Verb("announcements", "List announcements (POST /notifications/announcements), newest first."),
)

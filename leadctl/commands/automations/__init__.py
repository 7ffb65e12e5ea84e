"""``leadctl automations``: what an automation's recent runs did."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl automations --help`.
VERBS: tuple[Entry, ...] = (
    Verb("runs", "List an automation's recent runs, or show one run's actions and events."),
)

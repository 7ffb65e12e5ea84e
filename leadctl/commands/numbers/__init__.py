"""``leadctl numbers``: what an organization phone number can do right now."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl numbers --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "status",
        "Show a phone number's sending capacity, warmup, opt-outs, traffic and recent events.",
    ),
)

"""``leadctl a2a``: agent operations over JSON-RPC 2.0 (POST /a2a)."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl a2a --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "call",
        "Call an agent operation with a JSON-RPC 2.0 request (POST /a2a); print its result.",
    ),
)

"""``leadctl sandbox serve|reset``: the local stand-in for the service."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl sandbox --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "serve",
        "leadctl.commands.sandbox.serve",
        "serve",
        "Serve the sandbox in the foreground and print its URL and demo credentials.",
    ),
    Verb(
        "reset",
        "leadctl.commands.sandbox.reset",
        "reset",
        "Wipe the sandbox state; the next start seeds fresh demo data.",
    ),
)

"""``leadctl sandbox serve|reset``: the local stand-in for the service."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl sandbox --help`.
VERBS: tuple[Entry, ...] = (
    Verb("serve", "Serve the sandbox in the foreground and print its URL and demo credentials."),
    Verb("reset", "Wipe the sandbox state; the next start seeds fresh demo data."),
)

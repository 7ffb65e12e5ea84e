"""``leadctl auth``: store, inspect and remove a profile's credential."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl auth --help`.
VERBS: tuple[Entry, ...] = (
    Verb("login", "Store a credential for the profile (-p), checked with one read before saving."),
    Verb("status", "Check the profile's credential with the service and show what it is."),
    Verb("logout", "Remove the profile's stored credential (keyring or file)."),
    Verb(
        "refresh",
        "Refresh the profile's OAuth access token now (it is otherwise refreshed when it "
        "expires within 60 s, and once after a 401).",
    ),
    Verb("token", "Print the profile's credential, for scripts: TOKEN=$(leadctl auth token)."),
)

"""``leadctl auth``: store, inspect and remove a profile's credential."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl auth --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "login",
        "leadctl.commands.auth.login",
        "login",
        "Store a credential for the profile (-p), checked with one read before saving.",
    ),
    Verb(
        "status",
        "leadctl.commands.auth.status",
        "status",
        "Check the profile's credential with the service and show what it is.",
    ),
    Verb(
        "logout",
        "leadctl.commands.auth.logout",
        "logout",
        "Remove the profile's stored credential (keyring or file).",
    ),
    Verb(
        "refresh",
        "leadctl.commands.auth.refresh",
        "refresh",
        "Refresh the profile's OAuth access token now (it is otherwise refreshed when it "
        "expires within 60 s, and once after a 401).",
    ),
    Verb(
        "token",
        "leadctl.commands.auth.token",
        "token",
        "Print the profile's credential, for scripts: TOKEN=$(leadctl auth token).",
    ),
)

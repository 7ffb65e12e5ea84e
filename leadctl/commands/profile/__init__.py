"""``leadctl profile``: list, switch, inspect, edit and delete profiles.

Profiles hold settings only; the credential lives in the keyring or the file store, so
only ``delete`` (which removes it) ever reaches a credential store.
"""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl profile --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "list",
        "leadctl.commands.profile.list_",
        "list_",
        "List the configured profiles; the one in effect is marked current.",
    ),
    Verb(
        "use",
        "leadctl.commands.profile.use",
        "use",
        "Make NAME the current profile (used when no --profile is given).",
    ),
    Verb(
        "show",
        "leadctl.commands.profile.show",
        "show",
        "Show one profile's settings.",
    ),
    Verb(
        "set",
        "leadctl.commands.profile.set_",
        "set_",
        "Set KEY to VALUE on the profile in effect (-p), creating the profile if needed.",
    ),
    Verb(
        "unset",
        "leadctl.commands.profile.unset",
        "unset",
        "Remove KEY from the profile in effect (-p), back to its default.",
    ),
    Verb(
        "delete",
        "leadctl.commands.profile.delete",
        "delete",
        "Delete profile NAME and remove its credential from the keyring or file store.",
    ),
)

"""``leadctl profile``: list, switch, inspect, edit and delete profiles.

Profiles hold settings only; the credential lives in the keyring or the file store, so
only ``delete`` (which removes it) ever reaches a credential store.
"""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl profile --help`.
VERBS: tuple[Entry, ...] = (
    Verb("list", "List the configured profiles; the one in effect is marked current."),
    Verb("use", "Make NAME the current profile (used when no --profile is given)."),
    Verb("show", "Show one profile's settings."),
    Verb("set", "Set KEY to VALUE on the profile in effect (-p), creating the profile if needed."),
    Verb("unset", "Remove KEY from the profile in effect (-p), back to its default."),
    Verb("delete", "Delete profile NAME and remove its credential from the keyring or file store."),
)

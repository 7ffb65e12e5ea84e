"""``leadctl contract``: the OpenAPI contract generated commands come from, per profile."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl contract --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "show",
        "Show the active contract: where it came from, its version, operations per group.",
    ),
    Verb(
        "import",
        "Check an OpenAPI contract and make it the active one for the profile's service.",
    ),
    Verb("pull", "Find the service's contract and make it the active one for every profile of it."),
    Verb("diff", "Show operations added, removed or changed in FILE against the active contract."),
    Verb(
        "reset",
        "Forget the imported contract of the profile's service: the bundled one (for the "
        "sandbox, the one it publishes) is active again for every profile of that service.",
    ),
)

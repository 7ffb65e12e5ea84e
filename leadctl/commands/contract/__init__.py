"""``leadctl contract``: the OpenAPI contract generated commands come from, per profile."""

from __future__ import annotations

from leadctl.cli.verb_table import Entry, Verb

# The order here is the order of `leadctl contract --help`.
VERBS: tuple[Entry, ...] = (
    Verb(
        "show",
        "leadctl.commands.contract.show",
        "show",
        "Show the active contract: where it came from, its version, operations per group.",
    ),
    Verb(
        "import",
        "leadctl.commands.contract.import_",
        "import_",
        "Check an OpenAPI contract and make it the active one for the profile's service.",
    ),
    Verb(
        "pull",
        "leadctl.commands.contract.pull",
        "pull",
        "Find the service's contract and make it the active one for every profile of it.",
    ),
    Verb(
        "diff",
        "leadctl.commands.contract.diff",
        "diff",
        "Show operations added, removed or changed in FILE against the active contract.",
    ),
    Verb(
        "reset",
        "leadctl.commands.contract.reset",
        "reset",
        "Forget the imported contract of the profile's service: the bundled one (for the "
        "sandbox, the one it publishes) is active again for every profile of that service.",
    ),
)

"""``leadctl contract import``: a contract from a file, stdin or URL becomes the active one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.contract._shared import (
    SourceArgument,
    TimeLimitOption,
    load_checked,
    store,
)

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    # FILE, https URL or - (stdin), as typed: read_contract tells them apart.
    source: SourceArgument
    # Seconds reading, checking and compiling may take; None: the default.
    time_limit: TimeLimitOption = None


def run(opts: Options, ctx: Context) -> None:
    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is read
    store(ctx, load_checked(ctx, opts.source, opts.time_limit))


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract import openapi.json\n\n"
    "  curl -s https://api.example.com/openapi.json | leadctl contract import -\n\n"
    "  leadctl -p staging contract import https://staging.example.com/openapi.json"
)


HELP = """Check an OpenAPI contract and make it the active one for the profile's service.

    OpenAPI 3.0, 3.1 and 3.2, JSON or YAML (Swagger 2.0 is refused). The document is checked
    against its OpenAPI version (and the extensions leadctl reads). An operation with a
    defect (a path parameter missing from its path, a $ref to nowhere, a broken schema it
    uses) is left out and named with the reason; the rest is imported, and `contract show`
    keeps the list. A default its own schema does not admit is a warning with its JSON
    pointer; the operation is kept. Only a document that is not OpenAPI 3, has no sound
    operation, or is over the limits below is exit 2, and then nothing changes. It is stored
    per base URL under the cache dir (LEADCTL_CACHE_DIR), so every profile of the service sees
    it. A URL on the profile's host is fetched with its credential; any other https URL (a
    docs site) without one.
    """

command = verb_command(Options, run, help=HELP)

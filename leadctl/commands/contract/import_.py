"""``leadctl contract import``: a contract from a file, stdin or URL becomes the active one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from leadctl.commands._common import get_context
from leadctl.commands.contract._shared import SourceArgument, load_checked, store

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    # FILE, https URL or - (stdin), as typed: read_contract tells them apart.
    source: str


def run(opts: Options, ctx: Context) -> None:
    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is read
    raw, label, document = load_checked(ctx, opts.source)
    store(ctx, raw, label, document)


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract import openapi.json\n\n"
    "  curl -s https://api.example.com/openapi.json | leadctl contract import -\n\n"
    "  leadctl -p staging contract import https://staging.example.com/openapi.json"
)


def import_(typer_ctx: typer.Context, source: SourceArgument) -> None:
    """Validate an OpenAPI contract and make it the active one for the profile's service.

    OpenAPI 3.0, 3.1 and 3.2, JSON or YAML (Swagger 2.0 is refused). The document is checked
    against its OpenAPI version (and the extensions leadctl reads); an invalid one is
    exit 2 and changes nothing. It is stored per base URL under the cache dir
    (LEADCTL_CACHE_DIR), so every profile of the service sees it. A URL on the profile's
    host is fetched with its credential; any other https URL (a docs site) without one.
    """
    run(Options(source), get_context(typer_ctx))

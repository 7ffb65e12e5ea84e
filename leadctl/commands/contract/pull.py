"""``leadctl contract pull``: find the service's own contract and make it the active one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from leadctl.commands._common import get_context
from leadctl.commands.contract._shared import store

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    """``contract pull`` takes no flags of its own: the profile says where to look."""


def run(opts: Options, ctx: Context) -> None:
    from leadctl.contract.discovery import Discovery, label
    from leadctl.contract.fetch import parse_contract
    from leadctl.contract.formats import to_31
    from leadctl.contract.store import context_key
    from leadctl.contract.validate import check_contract
    from leadctl.operations import active_index_of

    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is sent
    meta = active_index_of(ctx).index.get("contract", {})
    known = {}
    if active_index_of(ctx).key == context_key(ctx) and meta.get("etag"):
        known[str(meta.get("source"))] = str(meta["etag"])
    found = Discovery.from_context(ctx).discover(etag_for=known)
    source = label(found.url)
    if found.raw is None:
        ctx.ios.info(f"{source} is unchanged (ETag {found.etag}); nothing was stored")
        return
    document = parse_contract(found.raw, what=source)
    check_contract(document, what=source)
    store(ctx, found.raw, source, to_31(document), etag=found.etag)


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract pull\n\n"
    "  leadctl -p sandbox contract pull && leadctl -p sandbox contract show --operations\n\n"
    "  leadctl profile set contract_url https://api.example.com/v1/openapi.json"
)


def pull(typer_ctx: typer.Context) -> None:
    """Find the service's contract and make it the active one for every profile of it.

    Tried in order: the profile's contract_url; the URL a Link: rel="service-desc" header
    of the base URL names; /openapi.json, /openapi/v1.json and /swagger/v1/swagger.json
    under the base URL (the first that is found wins). The profile's credential goes only
    to its own host (an organization key or user token, never a source key); a URL on
    another host is fetched without one. The stored contract's ETag is sent as
    If-None-Match: an unchanged contract is not fetched again. Then validated and stored
    like `contract import`.
    """
    run(Options(), get_context(typer_ctx))

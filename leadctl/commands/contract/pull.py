"""``leadctl contract pull``: find the service's own contract and make it the active one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.contract._shared import Checked, TimeLimitOption, new_budget_for, store
from leadctl.contract.loading import load_contract
from leadctl.contract.operations import active_index_of
from leadctl.verbkit.contract_discovery import Discovery, label

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    """The profile says where to look; the flag how long checking may take."""

    time_limit: TimeLimitOption = None


def run(opts: Options, ctx: Context) -> None:

    ctx.settings  # noqa: B018 - an unknown --profile is exit 2 before anything is sent
    meta = active_index_of(ctx).head.get("contract", {})
    known = {}
    if active_index_of(ctx).key == ctx.contract_key() and meta.get("etag"):
        known[str(meta.get("source"))] = str(meta["etag"])
    found = Discovery.from_context(ctx).discover(etag_for=known)
    source = label(found.url)
    if found.raw is None:
        ctx.ios.info(f"{source} is unchanged (ETag {found.etag}); nothing was stored")
        return
    budget = new_budget_for(ctx, source, opts.time_limit)
    loaded = load_contract(found.raw, what=source, budget=budget)
    store(ctx, Checked(loaded, source, budget), etag=found.etag)


EPILOG = (
    "Examples:\n\n"
    "  leadctl contract pull\n\n"
    "  leadctl -p sandbox contract pull && leadctl -p sandbox contract show --operations\n\n"
    "  leadctl profile set contract_url https://api.example.com/v1/openapi.json"
)


HELP = """Find the service's contract and make it the active one for every profile of it.

    Tried in order: the profile's contract_url; the URL a Link: rel="service-desc" header
    of the base URL names; /openapi.json, /openapi/v1.json and /swagger/v1/swagger.json
    under the base URL (the first that is found wins). The profile's credential goes only
    to its own host (an organization key or user token, never a source key); a URL on
    another host is fetched without one. The stored contract's ETag is sent as
    If-None-Match: an unchanged contract is not fetched again. Then checked and stored like
    `contract import` (operations with defects are left out and named).
    """

command = verb_command(Options, run, help=HELP)

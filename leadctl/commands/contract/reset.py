"""``leadctl contract reset``: forget the imported contract of the profile's service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.contract._shared import service_of_profile
from leadctl.config.settings import validate_profile_name
from leadctl.contract.store import SANDBOX_KEY, remove

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    """``contract reset`` takes no flags of its own: the profile names the service."""


def run(opts: Options, ctx: Context) -> None:

    whose = service_of_profile(ctx, validate_profile_name(ctx.settings.profile))
    key = ctx.contract_key()
    if key is not None and remove(ctx.env, key):
        again = "the sandbox's published" if key == SANDBOX_KEY else "the bundled"
        ctx.ios.info(f"{whose} uses {again} contract again")
    else:
        ctx.ios.info(f"{whose} had no imported contract")


EPILOG = "Examples:\n\n  leadctl contract reset\n\n  leadctl -p sandbox contract reset"


HELP = """Forget the imported contract of the profile's service: the bundled one (for the
    sandbox, the one it publishes) is active again for every profile of that service."""

command = verb_command(Options, run, help=HELP)

"""``leadctl profile unset``: remove one setting of the profile in effect."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import KEYS_HELP, complete_key, examples, unknown_profile
from leadctl.config.service_target import SANDBOX_PROFILE
from leadctl.config.settings import (
    INTERNAL_KEYS,
    PROFILE_KEYS,
    Config,
    update_config,
    validate_profile_name,
)
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = (
    KEYS_HELP
    + "\n\n"
    + examples("leadctl profile unset region", "leadctl -p prod profile unset timeout")
)


@dataclass(frozen=True)
class Options:
    key: Annotated[str, typer.Argument(help="Setting to remove.", autocompletion=complete_key)]


def run(opts: Options, ctx: Context) -> None:
    key = opts.key
    profile = validate_profile_name(ctx.profile_name)
    if key in INTERNAL_KEYS:
        raise UsageError(f"{key} is managed by `leadctl auth login` / `leadctl auth logout`")
    if key not in PROFILE_KEYS:
        raise UsageError(f"unknown profile key {key!r}", hint="keys: " + ", ".join(PROFILE_KEYS))

    def remove(config: Config) -> bool:
        values = config.profiles.get(profile)
        if values is None:
            if profile == SANDBOX_PROFILE:
                return False  # built in: it exists without a table
            raise unknown_profile(profile, config)
        removed = values.pop(key, None) is not None
        if not values and profile == SANDBOX_PROFILE:
            # Nothing of the user's is left in it: the built-in profile as shipped.
            del config.profiles[profile]
        return removed

    if update_config(ctx.env, remove):
        ctx.ios.info(f"profile {profile}: {key} removed")
    else:
        ctx.ios.info(f"profile {profile}: {key} was not set")


HELP = """Remove KEY from the profile in effect (-p), back to its default."""

command = verb_command(Options, run, help=HELP)

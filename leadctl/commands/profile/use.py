"""``leadctl profile use``: make a profile the current one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import examples, profile_values
from leadctl.config.settings import Config, update_config, validate_profile_name

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples("leadctl profile use prod", "leadctl profile use sandbox")


@dataclass(frozen=True)
class Options:
    name: Annotated[str, typer.Argument(help="Profile to make current.")]


def run(opts: Options, ctx: Context) -> None:
    name = validate_profile_name(opts.name)

    def switch(config: Config) -> None:
        profile_values(name, config)
        config.current_profile = name

    update_config(ctx.env, switch)
    ctx.ios.info(f"current profile: {name}")
    if ctx.env.get("LEADCTL_PROFILE"):
        ctx.ios.warn(f"LEADCTL_PROFILE={ctx.env['LEADCTL_PROFILE']} still overrides it here")


HELP = """Make NAME the current profile (used when no --profile is given)."""

command = verb_command(Options, run, help=HELP)

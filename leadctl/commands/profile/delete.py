"""``leadctl profile delete``: a profile and its stored credential."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import examples, unknown_profile
from leadctl.config.credentials import delete_credential
from leadctl.config.settings import Config, update_config, validate_profile_name

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples("leadctl profile delete staging", "leadctl profile delete old --yes")


@dataclass(frozen=True)
class Options:
    name: Annotated[str, typer.Argument(help="Profile to delete.")]
    # Do not ask for confirmation.
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False


def run(opts: Options, ctx: Context) -> None:

    name = validate_profile_name(opts.name)
    values = ctx.config.profiles.get(name)
    if values is None:
        raise unknown_profile(name, ctx.config)
    stored = " and its stored credential" if values.get("credential_store") else ""
    ctx.ios.confirm(f"Delete profile {name}{stored}?", assume_yes=opts.yes)
    # A profile that never stored a credential does not touch the keyring at all; one that
    # did keeps existing until that credential can really be removed.
    removed = delete_credential(env=ctx.env, profile=name, profile_settings=values)

    def drop(config: Config) -> None:
        config.profiles.pop(name, None)
        if config.current_profile == name:
            config.current_profile = None

    update_config(ctx.env, drop)
    ctx.ios.info(f"deleted profile {name}" + (" and its credential" if removed else ""))


HELP = """Delete profile NAME and remove its credential from the keyring or file store."""

command = verb_command(Options, run, help=HELP)

"""``leadctl alias delete NAME``: remove an alias."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.alias._shared import examples
from leadctl.config.settings import Config, update_config
from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples("leadctl alias delete tx", "leadctl alias delete state")


@dataclass(frozen=True)
class Options:
    name: Annotated[str, typer.Argument(help="The alias to delete.")]


def run(opts: Options, ctx: Context) -> None:

    def drop(config: Config) -> str:
        stored = config.aliases.pop(opts.name, None)
        if stored is None:
            known = ", ".join(sorted(config.aliases)) or "none"
            raise UsageError(
                f"no alias {opts.name!r} (aliases: {known})", hint="`leadctl alias list`"
            )
        return stored

    stored = update_config(ctx.env, drop)
    ctx.ios.info(f"deleted alias {opts.name}; it was: {stored}")


HELP = """Delete alias NAME."""

command = verb_command(Options, run, help=HELP)

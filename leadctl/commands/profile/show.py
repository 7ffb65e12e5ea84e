"""``leadctl profile show``: one profile's settings (never its credential)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import examples, profile_values, row
from leadctl.config.settings import INTERNAL_KEYS, PROFILE_KEYS, validate_profile_name
from leadctl.output import Column, emit_object

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

EPILOG = examples("leadctl profile show", "leadctl profile show prod -o json")


@dataclass(frozen=True)
class Options:
    # None: the profile in effect.
    name: Annotated[
        str | None, typer.Argument(help="Profile to show (default: the one in effect).")
    ] = None


def _columns() -> list[Column]:

    keys = [*PROFILE_KEYS, *INTERNAL_KEYS]
    return [
        Column("name"),
        Column("current", kind="bool"),
        *(Column(key, kind="number" if key == "timeout" else "text") for key in keys),
    ]


def run(opts: Options, ctx: Context) -> None:

    chosen = validate_profile_name(opts.name if opts.name is not None else ctx.profile_name)
    values = profile_values(chosen, ctx.config)
    emit_object(ctx, row(ctx, chosen, values), columns=_columns())


HELP = """Show one profile's settings. Credentials are never part of a profile."""

command = verb_command(Options, run, help=HELP)

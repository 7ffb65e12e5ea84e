"""``leadctl alias list``: the aliases of config.toml."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.alias._shared import examples
from leadctl.config.aliases import configured_aliases
from leadctl.output import Column, emit_list

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = examples("leadctl alias list", "leadctl alias list -o json > aliases.json")


@dataclass(frozen=True)
class Options:
    """`alias list` takes only the global options."""


def run(opts: Options, ctx: Context) -> None:

    rows = [
        {"name": name, "expansion": alias.command, "shell": alias.shell}
        for name, alias in sorted(configured_aliases(ctx.env).items())
    ]
    emit_list(
        ctx, rows, columns=[Column("name"), Column("expansion"), Column("shell", kind="bool")]
    )
    if not rows:
        ctx.ios.info("no aliases yet: add one with `leadctl alias set NAME 'EXPANSION'`")


HELP = """List the aliases.

`-o json` prints what `alias import` reads back."""

command = verb_command(Options, run, help=HELP)

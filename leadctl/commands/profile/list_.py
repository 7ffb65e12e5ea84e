"""``leadctl profile list``: the configured profiles, the one in effect marked current."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.profile._shared import examples, row
from leadctl.output import Column, emit_list

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.output import Column

EPILOG = examples("leadctl profile list", "leadctl profile list -o value --columns name")


@dataclass(frozen=True)
class Options:
    """`profile list` takes only the global options."""


def _columns() -> list[Column]:

    return [
        Column("name"),
        Column("current", kind="bool"),
        Column("base_url", "base URL"),
        Column("output"),
        Column("region"),
        Column("credential_store", "store"),
        Column("credential_kind", "kind"),
    ]


def run(opts: Options, ctx: Context) -> None:

    config = ctx.config
    rows = [row(ctx, name, values) for name, values in sorted(config.profiles.items())]
    emit_list(ctx, rows, columns=_columns())
    if not rows:
        ctx.ios.info("no profiles yet: create one with `leadctl auth login`")


HELP = """List the configured profiles; the one in effect is marked current."""

list_ = verb_command(Options, run, name="list", help=HELP)

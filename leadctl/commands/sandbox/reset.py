"""``leadctl sandbox reset``: wipe the sandbox state; the next start seeds fresh demo data."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl import sandbox_entry
from leadctl.commands._verb import verb_command

if TYPE_CHECKING:
    from leadctl.context import Context


@dataclass(frozen=True)
class Options:
    data_dir: Annotated[
        Path | None,
        typer.Option(
            "--data-dir",
            metavar="DIR",
            help="The state to wipe [default: the user data dir's sandbox/].",
        ),
    ] = None
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; required without a terminal.")
    ] = False


def run(opts: Options, ctx: Context) -> None:
    state_dir = opts.data_dir or sandbox_entry.default_state_dir(ctx.env)
    if not sandbox_entry.has_state(state_dir):
        ctx.ios.info(f"no sandbox state at {state_dir}")
        return
    sandbox_entry.check_not_served(state_dir)
    ctx.ios.confirm(f"Wipe the sandbox state at {state_dir}?", assume_yes=opts.yes)
    if sandbox_entry.reset(state_dir):
        ctx.ios.info(f"sandbox state removed: {state_dir}")
    else:
        ctx.ios.info(f"no sandbox state at {state_dir}")


EPILOG = (
    "Examples:\n\n"
    "  leadctl sandbox reset\n\n"
    "  leadctl sandbox reset --yes --data-dir ./sandbox-state"
)


HELP = """Wipe the sandbox state; the next start seeds fresh demo data.

    Asks for confirmation on a terminal and needs --yes without one. Refused while a
    `leadctl sandbox serve` uses the state (the error names its pid).
    """

command = verb_command(Options, run, help=HELP)

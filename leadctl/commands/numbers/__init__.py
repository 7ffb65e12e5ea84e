"""``leadctl numbers``: what an organization phone number can do right now."""

from __future__ import annotations

import typer

from leadctl.commands.numbers import status

app = typer.Typer(help="Inspect phone numbers: capacity, warmup, traffic.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    # A Typer app with one command would otherwise become that command, and
    # `leadctl numbers VERB` would read VERB as an argument.
    pass


app.command("status", epilog=status.EPILOG)(status.status)

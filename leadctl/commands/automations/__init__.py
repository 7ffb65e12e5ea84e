"""``leadctl automations``: what an automation's recent runs did."""

from __future__ import annotations

import typer

from leadctl.commands.automations import runs

app = typer.Typer(help="Inspect automation runs.", no_args_is_help=True)


@app.callback()
def _group() -> None:
    # A Typer app with one command would otherwise become that command, and
    # `leadctl automations VERB` would read VERB as an argument.
    pass


app.command("runs", epilog=runs.EPILOG)(runs.runs)

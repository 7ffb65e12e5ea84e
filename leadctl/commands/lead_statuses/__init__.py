"""``leadctl lead-statuses``: the organization's lead statuses."""

from __future__ import annotations

import typer

from leadctl.commands.lead_statuses import list_

app = typer.Typer(help="List the organization's lead statuses.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """List the organization's lead statuses."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


app.command("list", epilog=list_.EPILOG)(list_.list_)

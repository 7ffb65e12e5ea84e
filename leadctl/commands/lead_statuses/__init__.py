"""``leadctl lead-statuses``: the organization's lead statuses."""

from __future__ import annotations

import typer

from leadctl.commands.lead_statuses import get, list_

app = typer.Typer(help="List lead statuses and find one by name.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """List lead statuses and find one by name."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


app.command("list", epilog=list_.EPILOG)(list_.list_)
app.command("get", epilog=get.EPILOG)(get.get)

"""``leadctl users``: the current user's compliance settings."""

from __future__ import annotations

import typer

from leadctl.commands.users import compliance

app = typer.Typer(help="Update the current user's compliance settings.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """Update the current user's compliance settings."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


app.command("compliance", epilog=compliance.EPILOG)(compliance.compliance)

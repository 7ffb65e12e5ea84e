"""``leadctl notifications``: announcements for the current user."""

from __future__ import annotations

import typer

from leadctl.commands.notifications import announcements

app = typer.Typer(help="Read announcements.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """Read announcements."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


app.command("announcements", epilog=announcements.EPILOG)(announcements.announcements)

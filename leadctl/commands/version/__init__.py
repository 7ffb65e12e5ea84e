"""``leadctl version``: a single command, not a group of verbs."""

from __future__ import annotations

import typer

from leadctl.commands.version import show

app = typer.Typer()

app.command(epilog=show.EPILOG)(show.command)

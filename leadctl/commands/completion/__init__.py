"""``leadctl completion SHELL``: a single command, not a group of verbs."""

from __future__ import annotations

import typer

from leadctl.commands.completion import script

app = typer.Typer()

app.command(epilog=script.EPILOG)(script.command)

"""``leadctl completion SHELL``: a single command (see SINGLE_COMMANDS in leadctl.groups)."""

from __future__ import annotations

import typer

from leadctl.commands.completion import script

app = typer.Typer()

app.command(epilog=script.EPILOG)(script.completion)

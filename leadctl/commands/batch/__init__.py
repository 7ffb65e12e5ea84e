"""``leadctl batch``: a group that is one command."""

from __future__ import annotations

import typer

from leadctl.commands.batch import batch

app = typer.Typer()

app.command("batch", epilog=batch.EPILOG)(batch.command)

"""``leadctl help [GROUP [VERB]]``: a single command, not a group of verbs."""

from __future__ import annotations

import typer

from leadctl.commands.help import topic

app = typer.Typer()

app.command(epilog=topic.EPILOG)(topic.command)

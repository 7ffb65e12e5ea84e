"""``leadctl api METHOD PATH``: a single command, not a group of verbs."""

from __future__ import annotations

import typer

from leadctl.commands.api import request

app = typer.Typer()

app.command(epilog=request.EPILOG)(request.command)

"""``leadctl status-changes``: update or delete entries of a lead's status history."""

from __future__ import annotations

import typer

from leadctl.commands.status_changes import delete, update

app = typer.Typer(help="Update or delete entries of a lead's status history.", no_args_is_help=True)

app.command("update", epilog=update.EPILOG)(update.update)
app.command("delete", epilog=delete.EPILOG)(delete.delete)

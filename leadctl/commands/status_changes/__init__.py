"""``leadctl status-changes``: update or delete entries of a lead's status history."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.status_changes import delete, update

app = group_app("status-changes")

app.command("update", epilog=update.EPILOG)(update.update)
app.command("delete", epilog=delete.EPILOG)(delete.delete)

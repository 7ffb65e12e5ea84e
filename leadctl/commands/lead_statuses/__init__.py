"""``leadctl lead-statuses``: the organization's lead statuses."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.lead_statuses import get, list_

app = group_app("lead-statuses", one_verb=True)


app.command("list", epilog=list_.EPILOG)(list_.list_)
app.command("get", epilog=get.EPILOG)(get.get)

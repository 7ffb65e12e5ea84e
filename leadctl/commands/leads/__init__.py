"""``leadctl leads``: list the organization's leads and send new ones to intake."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.leads import create, import_, list_

app = group_app("leads")

app.command("list", epilog=list_.EPILOG)(list_.list_)
app.command("create", epilog=create.EPILOG)(create.create)
app.command("import", epilog=import_.EPILOG)(import_.import_leads)

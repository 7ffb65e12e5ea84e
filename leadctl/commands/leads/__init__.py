"""``leadctl leads``: list the organization's leads and send new ones to intake."""

from __future__ import annotations

import typer

from leadctl.commands.leads import create, import_, list_

app = typer.Typer(help="List, create and import leads.", no_args_is_help=True)

app.command("list", epilog=list_.EPILOG)(list_.list_)
app.command("create", epilog=create.EPILOG)(create.create)
app.command("import", epilog=import_.EPILOG)(import_.import_leads)

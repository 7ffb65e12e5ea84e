"""``leadctl contract``: the OpenAPI contract generated commands come from, per profile."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.contract import diff, import_, pull, reset, show

app = group_app("contract")

app.command(epilog=show.EPILOG)(show.show)
app.command("import", epilog=import_.EPILOG)(import_.import_)
app.command(epilog=pull.EPILOG)(pull.pull)
app.command(epilog=diff.EPILOG)(diff.diff)
app.command(epilog=reset.EPILOG)(reset.reset)

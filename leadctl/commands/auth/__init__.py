"""``leadctl auth``: store, inspect and remove a profile's credential."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.auth import login, logout, refresh, status, token

app = group_app("auth")

# The order here is the order of `leadctl auth --help`.
app.command("login", epilog=login.EPILOG)(login.login)
app.command("status", epilog=status.EPILOG)(status.status)
app.command("logout", epilog=logout.EPILOG)(logout.logout)
app.command("refresh", epilog=refresh.EPILOG)(refresh.refresh)
app.command("token", epilog=token.EPILOG)(token.token)

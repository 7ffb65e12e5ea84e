"""``leadctl auth``: store, inspect and remove a profile's credential."""

from __future__ import annotations

import typer

from leadctl.commands.auth import login, logout, refresh, status, token

app = typer.Typer(
    help="Log in, show and remove the credential of a profile.",
    no_args_is_help=True,
)

# The order here is the order of `leadctl auth --help`.
app.command("login", epilog=login.EPILOG)(login.login)
app.command("status", epilog=status.EPILOG)(status.status)
app.command("logout", epilog=logout.EPILOG)(logout.logout)
app.command("refresh", epilog=refresh.EPILOG)(refresh.refresh)
app.command("token", epilog=token.EPILOG)(token.token)

"""``leadctl sandbox serve|reset``: the local stand-in for the service."""

from __future__ import annotations

import typer

from leadctl.commands.sandbox import reset, serve

app = typer.Typer(
    help="Run the local sandbox server.",
    no_args_is_help=True,
    # Plain help, as the root app's; keeps rich out of the sandbox commands.
    rich_markup_mode=None,
)

app.command("serve", epilog=serve.EPILOG)(serve.serve)
app.command("reset", epilog=reset.EPILOG)(reset.reset)

"""``leadctl a2a``: agent operations over JSON-RPC 2.0 (POST /a2a)."""

from __future__ import annotations

import typer

from leadctl.commands.a2a import call

app = typer.Typer(help="Call an agent operation over JSON-RPC.", no_args_is_help=True)


@app.callback()
def group() -> None:
    """Call an agent operation over JSON-RPC."""
    # A Typer app with one command would otherwise collapse into that command, and
    # `leadctl GROUP VERB` would stop working.


app.command(epilog=call.EPILOG)(call.call)

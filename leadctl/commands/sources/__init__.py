"""``leadctl sources``: update a lead source, rotate its intake key."""

from __future__ import annotations

import typer

from leadctl.commands.sources import rotate, update

app = typer.Typer(help="Update lead sources and rotate their intake keys.", no_args_is_help=True)

# The order here is the order of `leadctl sources --help`.
app.command("update", epilog=update.EPILOG)(update.update)
app.command("rotate", epilog=rotate.EPILOG)(rotate.rotate)

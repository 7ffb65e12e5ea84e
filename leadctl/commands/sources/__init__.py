"""``leadctl sources``: update a lead source, rotate its intake key."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.sources import rotate, update

app = group_app("sources")

# The order here is the order of `leadctl sources --help`.
app.command("update", epilog=update.EPILOG)(update.update)
app.command("rotate", epilog=rotate.EPILOG)(rotate.rotate)

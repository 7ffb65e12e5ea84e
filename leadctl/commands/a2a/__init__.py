"""``leadctl a2a``: agent operations over JSON-RPC 2.0 (POST /a2a)."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.a2a import call

app = group_app("a2a", one_verb=True)


app.command(epilog=call.EPILOG)(call.call)

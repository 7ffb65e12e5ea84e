"""``leadctl sandbox serve|reset``: the local stand-in for the service."""

from __future__ import annotations

from leadctl.commands._group import group_app
from leadctl.commands.sandbox import reset, serve

app = group_app(
    "sandbox",
    # Plain help, as the root app's; keeps rich out of the sandbox commands.
    rich_markup_mode=None,
)

app.command("serve", epilog=serve.EPILOG)(serve.serve)
app.command("reset", epilog=reset.EPILOG)(reset.reset)

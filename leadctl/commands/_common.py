"""Helpers every verb shares: reaching the per-invocation Context, and options that more
than one group declares (the address of the commands that listen)."""

from __future__ import annotations

from typing import Annotated

import typer

from leadctl.context import Context


def get_context(typer_ctx: typer.Context) -> Context:
    """The leadctl Context the root callback stored for this invocation."""
    root = typer_ctx.find_root()
    obj = root.obj
    if not isinstance(obj, Context):
        raise RuntimeError("leadctl context missing: the command ran outside the root app")
    return obj


# `sandbox serve` and `webhooks listen`: declared once so both read and check them alike.
HostOption = Annotated[
    str,
    typer.Option(metavar="HOST", help="Address to listen on; non-loopback needs --allow-remote."),
]
PortOption = Annotated[
    int,
    typer.Option(min=0, max=65535, metavar="PORT", help="Port to listen on (0: any free port)."),
]

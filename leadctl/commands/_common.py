"""Helpers every verb shares: reaching the per-invocation Context."""

from __future__ import annotations

import typer

from leadctl.context import Context


def get_context(typer_ctx: typer.Context) -> Context:
    """The leadctl Context the root callback stored for this invocation."""
    root = typer_ctx.find_root()
    obj = root.obj
    if not isinstance(obj, Context):
        raise RuntimeError("leadctl context missing: the command ran outside the root app")
    return obj

"""``leadctl version``: what ``leadctl --version`` prints, as a command (gh's habit)."""

from __future__ import annotations

import typer

from leadctl import __version__
from leadctl.commands._common import get_context

EPILOG = "Examples:\n\n  leadctl version\n\n  leadctl --version"


def version(typer_ctx: typer.Context) -> None:
    """Print leadctl's version, as --version does."""

    get_context(typer_ctx).ios.stdout.write(f"leadctl {__version__}\n")

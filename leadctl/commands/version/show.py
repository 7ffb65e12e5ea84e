"""``leadctl version``: what ``leadctl --version`` prints, as a command (gh's habit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl import __version__
from leadctl.commands._verb import verb_command

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = "Examples:\n\n  leadctl version\n\n  leadctl --version"


@dataclass(frozen=True)
class Options:
    """No flags."""


def run(opts: Options, ctx: Context) -> None:
    ctx.ios.stdout.write(f"leadctl {__version__}\n")


command = verb_command(Options, run, help="Print leadctl's version, as --version does.")

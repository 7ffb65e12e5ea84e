"""``leadctl auth token``: print the profile's credential, for scripts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command

if TYPE_CHECKING:
    from leadctl.context import Context

EPILOG = (
    "Examples:\n\n"
    "  TOKEN=$(leadctl auth token)\n\n"
    "  LEADCTL_TOKEN=$(leadctl -p prod auth token) ./nightly-export.sh"
)


@dataclass(frozen=True)
class Options:
    """`auth token` takes only the global options."""


def run(opts: Options, ctx: Context) -> None:
    credential = ctx.require_credential()
    ctx.ios.stdout.write(credential.value + "\n")


HELP = """Print the profile's credential, for scripts: TOKEN=$(leadctl auth token)."""

command = verb_command(Options, run, help=HELP)

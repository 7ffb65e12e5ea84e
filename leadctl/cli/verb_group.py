"""The group every leadctl group is: its help when no verb follows it (exit 0)."""

from __future__ import annotations

import sys
from typing import Any

from typer.core import TyperGroup

from leadctl.errors import ExitCode, LeadctlError


class StdoutClosed(LeadctlError):
    exit_code = ExitCode.OK


class Interrupted(LeadctlError):
    exit_code = ExitCode.INTERRUPTED


class VerbGroup(TyperGroup):
    """A group of verbs. `leadctl leads` (global options allowed) prints the group's help on
    stdout and exits 0, where Click's no_args_is_help raises an error Typer does not export
    and a group given only options fails with "Missing command"."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.no_args_is_help = False
        self.invoke_without_command = True

    def invoke(self, ctx: Any) -> Any:
        # Click's main would turn these into a bare exit 1 and an Abort with a stray newline
        # on the real stderr; leadctl ends a closed pipe quietly with 0 and says why it
        # stopped on Ctrl-C (app.invoke).
        try:
            result = super().invoke(ctx)
        except BrokenPipeError:
            raise StdoutClosed("stdout was closed") from None
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None
        if ctx.invoked_subcommand is None and not ctx.resilient_parsing:
            streams = getattr(ctx.find_root().obj, "ios", None)
            out = streams.stdout if streams is not None else sys.stdout
            out.write(ctx.get_help() + "\n")
        return result

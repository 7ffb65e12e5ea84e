"""The group every leadctl group is: its help when no verb follows it (exit 0)."""

from __future__ import annotations

import sys
from typing import Any

from typer.core import TyperGroup

from leadctl.cli.lazy_verbs import LazyVerbs
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

    def list_commands(self, ctx: Any) -> list[str]:
        # Typer's reads the mapping's items, which would build every lazy verb.
        return list(self.commands)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        # As Typer's, but a verb not built yet is listed with its declared line instead of
        # being built (and its module imported) for one line of help.
        lazy = self.commands if isinstance(self.commands, LazyVerbs) else None
        rows: list[tuple[str, str | Any]] = []
        for name in self.list_commands(ctx):
            summary = lazy.summary(name) if lazy is not None else None
            if summary is not None:
                rows.append((name, summary))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if not rows:
            return
        limit = formatter.width - 6 - max(len(name) for name, _ in rows)
        lines = [
            (name, entry if isinstance(entry, str) else entry.get_short_help_str(limit))
            for name, entry in rows
        ]
        with formatter.section("Commands"):
            formatter.write_dl(lines)

"""The group every leadctl group is: its help when no verb follows it (exit 0), and its
verbs as a mapping that builds each verb's command on first lookup.

A group's help lists its verbs without building them (a curated verb's one-line help is
declared beside its name), and running one verb builds that verb only: its module, and
whatever that module imports, load for it alone."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import Any

from typer.core import TyperGroup

from leadctl.errors import ExitCode, LeadctlError


class StdoutClosed(LeadctlError):
    exit_code = ExitCode.OK


class Interrupted(LeadctlError):
    exit_code = ExitCode.INTERRUPTED


class LazyVerbs(MutableMapping[str, Any]):
    """A group's ``commands``: the built ones, then the pending ones (built on first
    lookup), always listed in that order (curated verbs first, then the contract's)."""

    def __init__(
        self,
        built: Mapping[str, Any],
        pending: Mapping[str, Callable[[], Any]],
        aliases: Mapping[str, str] | None = None,
        summaries: Mapping[str, str] | None = None,
    ):
        self._built = dict(built)
        self._pending: dict[str, Callable[[], Any]] = {}
        self._order = list(self._built)
        self._aliases: dict[str, str] = {}
        # A pending verb's one-line help, when it is known without building the verb.
        self._summaries: dict[str, str] = {}
        self.add_pending(pending, aliases, summaries)

    def add_pending(
        self,
        pending: Mapping[str, Callable[[], Any]],
        aliases: Mapping[str, str] | None = None,
        summaries: Mapping[str, str] | None = None,
    ) -> None:
        """More verbs, listed after those already here; a name already here keeps its verb."""
        for name, factory in pending.items():
            if name not in self:
                self._pending[name] = factory
                self._order.append(name)
                if summaries and name in summaries:
                    self._summaries[name] = summaries[name]
        # Names that reach a verb without being listed (x-cli-aliases, the operationId).
        for alias, name in (aliases or {}).items():
            if alias not in self:
                self._aliases[alias] = name

    def summary(self, name: str) -> str | None:
        """The one-line help of a verb not built yet, when it was declared."""
        return self._summaries.get(name) if name in self._pending else None

    def __getitem__(self, name: str) -> Any:
        if name not in self._built and name not in self._pending and name in self._aliases:
            name = self._aliases[name]
        if name not in self._built:
            factory = self._pending.pop(name)  # KeyError: no such verb
            self._built[name] = factory()
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        if name not in self._built and name not in self._pending:
            self._order.append(name)
        self._pending.pop(name, None)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name in self._built:
            del self._built[name]
        else:
            del self._pending[name]
        self._order.remove(name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._order))

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, name: object) -> bool:
        return name in self._built or name in self._pending or name in self._aliases


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

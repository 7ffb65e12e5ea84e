""" "Did you mean ...?" for a mistyped verb of a generated group."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from typer.core import TyperGroup

from leadctl.errors import UsageError


def suggestions(name: str, known: Iterable[str]) -> list[str]:
    """Up to three close names, closest first; a name that one known name starts with
    (``lis`` for ``list``) counts as close."""
    names = sorted(set(known))
    found = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    for candidate in names:
        if candidate.startswith(name) and candidate not in found and len(found) < 3:
            found.append(candidate)
    return found


class SuggestingGroup(TyperGroup):
    """A group of generated verbs that names the closest verbs when one is mistyped."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if name and not name.startswith("-") and self.get_command(ctx, name) is None:
            close = suggestions(name, self.commands)
            hint = f"did you mean {' or '.join(close)}?" if close else None
            raise UsageError(
                f"no command {self.name} {name!r}",
                hint=hint or f"see `leadctl {self.name} --help`",
            )
        return super().resolve_command(ctx, args)

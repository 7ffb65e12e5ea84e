"""Aliases as gh has them: a word that stands for a leadctl command line, kept in
config.toml's ``[aliases]`` table, and what it expands to.

An alias is stored as gh stores it: its expansion as typed, with ``!`` first for one that
``sh -c`` runs (``--shell``). A plain expansion is split as a shell splits words, then
``$1``, ``$2``... in each word become the arguments that follow the alias; the arguments
no placeholder took are appended, so ``leadctl tx -o json`` adds ``-o json`` to ``tx``'s
command. Words are split before the arguments go in, so an argument with a space stays one
word (gh puts them in first and splits after).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from leadctl.config.settings import ALIAS_NAME_PATTERN, load_config
from leadctl.errors import UsageError

SHELL_MARK = "!"
PLACEHOLDER = re.compile(r"\$(\d+)")


class Alias(NamedTuple):
    name: str
    stored: str  # as in config.toml: "!" first for a shell alias

    @property
    def shell(self) -> bool:
        return self.stored.startswith(SHELL_MARK)

    @property
    def command(self) -> str:
        """What it stands for: the command line, or the shell's script."""
        return self.stored[len(SHELL_MARK) :] if self.shell else self.stored


def stored_form(expansion: str, *, shell: bool) -> str:
    """The expansion as config.toml keeps it (``--shell`` is the ``!`` of gh)."""
    expansion = expansion.strip()
    if shell and not expansion.startswith(SHELL_MARK):
        return SHELL_MARK + expansion
    return expansion


def validate_alias_name(name: str) -> str:
    if not ALIAS_NAME_PATTERN.fullmatch(name):
        raise UsageError(
            f"invalid alias name {name!r}",
            hint="use 1-64 letters, digits, '_' or '-', starting with a letter or digit",
        )
    return name


def first_word(expansion: str) -> str:
    """The command a plain expansion starts with (exit 2 when it starts with none)."""
    words = split_words(expansion)
    if not words or words[0].startswith("-"):
        raise UsageError(
            f"an alias expands to a leadctl command, not {expansion!r}",
            hint="start it with the command (leads list ...); global flags work after it",
        )
    return words[0]


def split_words(expansion: str) -> list[str]:
    try:
        return shlex.split(expansion)
    except ValueError as error:  # an unclosed quote
        raise UsageError(f"cannot split the alias expansion {expansion!r}: {error}") from None


def expand(alias: Alias, args: Sequence[str]) -> list[str]:
    """The command line a plain alias stands for, given the arguments after it."""
    used: set[int] = set()
    missing: set[int] = set()

    def put(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if 1 <= number <= len(args):
            used.add(number)
            return args[number - 1]
        missing.add(number)
        return match.group(0)

    words = [PLACEHOLDER.sub(put, word) for word in split_words(alias.command)]
    if missing:
        wanted = max(missing | used)
        raise UsageError(
            f"alias {alias.name} takes {wanted} argument{'s' if wanted > 1 else ''} "
            f"($1..${wanted}), {len(args)} given: {alias.command}"
        )
    return words + [arg for number, arg in enumerate(args, start=1) if number not in used]


def configured_aliases(env: Mapping[str, str]) -> dict[str, Alias]:
    """The aliases of config.toml, by name (none without a file)."""
    return {name: Alias(name, stored) for name, stored in load_config(env).aliases.items()}

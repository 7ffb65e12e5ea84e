"""What the ``alias`` verbs share: which names are taken by commands, adding an alias."""

from __future__ import annotations

from typing import Any

from leadctl.cli.groups import GROUPS
from leadctl.config.aliases import SHELL_MARK, first_word, validate_alias_name
from leadctl.config.settings import Config
from leadctl.errors import UsageError


def examples(*lines: str) -> str:
    return "Examples:\n\n" + "\n\n".join(f"  {line}" for line in lines)


def is_command(word: str) -> bool:
    """Whether the root resolves ``word`` to a command: a curated group, or a group of the
    active contract (the profile in effect picks it), which an alias must not hide."""
    if word in GROUPS:
        return True
    # The root's own lookup, the answer the dispatch gets (Typer's vendored Click).
    from typer._click.globals import get_current_context

    root = get_current_context().find_root()
    group: Any = root.command  # the root group (cli/app.py LazyGroup)
    return group.get_command(root, word) is not None


def check_alias(name: str, stored: str) -> None:
    """Exit 2 unless ``name`` may be an alias and a plain ``stored`` starts with a command."""
    validate_alias_name(name)
    if is_command(name):
        raise UsageError(
            f"{name!r} is a leadctl command: an alias never shadows one",
            hint="pick another name (`leadctl --help` lists the commands)",
        )
    if not stored.startswith(SHELL_MARK):
        word = first_word(stored)
        if not is_command(word):
            raise UsageError(
                f"alias {name}: {word!r} is not a leadctl command",
                hint="an expansion starts with a command (leads list ...); "
                "--shell runs any shell script",
            )


def add_alias(config: Config, name: str, stored: str, *, clobber: bool) -> bool:
    """Store the alias; returns whether it replaced one (exit 2 for that without clobber)."""
    existing = config.aliases.get(name)
    if existing is not None and existing != stored and not clobber:
        raise UsageError(
            f"alias {name} already exists: {existing}",
            hint="--clobber replaces it",
        )
    config.aliases[name] = stored
    return existing is not None and existing != stored

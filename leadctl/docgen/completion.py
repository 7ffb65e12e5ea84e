"""The completion script for one shell: the command tree's tables (``completion_tables``)
written by that shell's writer (``completion_bash``, ``completion_zsh``, ``completion_fish``).
"""

from __future__ import annotations

from collections.abc import Callable

from leadctl.docgen import completion_bash, completion_fish, completion_zsh
from leadctl.docgen.completion_tables import Table, completion_tables
from leadctl.docgen.tree import CommandSpec, load_tree


def render_completion(shell: str, tree: CommandSpec | None = None) -> str:
    """The completion script for ``shell`` (bash, zsh or fish)."""
    renderers: dict[str, Callable[[tuple[Table, ...]], str]] = {
        "bash": completion_bash.render,
        "zsh": completion_zsh.render,
        "fish": completion_fish.render,
    }
    return renderers[shell](completion_tables(tree if tree is not None else load_tree()))

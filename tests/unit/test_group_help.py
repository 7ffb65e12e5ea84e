"""A group's one-line help is written once, in leadctl.cli.groups: what `leadctl --help` lists
(without loading the group) is what `leadctl GROUP --help` says. A verb's one-line help is
declared beside its name in its group's VERBS (what `leadctl GROUP --help` lists without
loading the verb): it is what the loaded verb says."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
import typer

from leadctl.cli.app import root
from leadctl.cli.generated_tree import pin_bundled
from leadctl.cli.groups import GROUPS
from leadctl.cli.verb_table import Entry, SubGroup

CURATED_GROUPS = [
    name for name in GROUPS if hasattr(importlib.import_module(GROUPS[name][0]), "VERBS")
]


def _loaded(name: str) -> tuple[Any, typer.Context]:
    """The command ``leadctl NAME`` runs (the bundled contract's tree) and its context."""
    command: Any = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    pin_bundled(ctx)
    group = command.get_command(ctx, name)
    return group, typer.Context(group, parent=ctx, info_name=name)


@pytest.mark.parametrize("name", list(GROUPS))
def test_a_group_says_the_line_leadctl_help_lists_for_it(name: str) -> None:
    command, _ = _loaded(name)
    short_help = GROUPS[name][1]
    if name not in CURATED_GROUPS:
        # A single command's help is the verb's own: its first line is what the root lists.
        assert (command.help or "").strip().splitlines()[0] == short_help
        return
    assert command.help == short_help


def _declared(
    entries: tuple[Entry, ...], command: Any, ctx: typer.Context
) -> list[tuple[str, str, str]]:
    """(verb, declared line, the loaded verb's line) for ``entries`` and sub-groups'."""
    found = []
    for entry in entries:
        verb = command.get_command(ctx, entry.name)
        assert verb is not None and not verb.hidden, entry.name
        found.append((entry.name, entry.summary, verb.get_short_help_str(limit=1000)))
        if isinstance(entry, SubGroup):
            assert verb.help == entry.summary
            sub_ctx = typer.Context(verb, parent=ctx, info_name=entry.name)
            found += _declared(entry.verbs, verb, sub_ctx)
    return found


@pytest.mark.parametrize("name", CURATED_GROUPS)
def test_a_verb_says_the_line_its_group_declares_for_it(name: str) -> None:
    group, group_ctx = _loaded(name)
    entries = importlib.import_module(GROUPS[name][0]).VERBS
    rows = _declared(entries, group, group_ctx)
    assert [(verb, declared) for verb, declared, _ in rows] == [
        (verb, loaded) for verb, _, loaded in rows
    ]

"""A group's one-line help is written once, in leadctl.cli.groups: what `leadctl --help` lists
(without loading the group) is what `leadctl GROUP --help` says."""

from __future__ import annotations

import importlib

import pytest
import typer

from leadctl.cli.groups import GROUPS


@pytest.mark.parametrize("name", list(GROUPS))
def test_a_group_says_the_line_leadctl_help_lists_for_it(name: str) -> None:
    module_name, short_help = GROUPS[name]
    command = typer.main.get_command(importlib.import_module(module_name).app)
    if not isinstance(command, typer.core.TyperGroup):
        # A single command's help is the verb's own: its first line is what the root lists.
        assert (command.help or "").strip().splitlines()[0] == short_help
        return
    assert command.help == short_help

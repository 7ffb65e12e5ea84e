"""A group's verbs, declared in its package's ``__init__`` and loaded one at a time.

A group declares each verb once, in help order: its name, the module and function that
implement it, and the one line ``leadctl GROUP --help`` lists for it. The group's command
lists them from that declaration; a verb's module is imported only when that verb is
looked up (run, its --help, the generated docs), never for the group's help or a sibling
verb. tests/unit/test_group_help.py loads every verb and checks its declared line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import typer

from leadctl.cli.verb_group import LazyVerbs, VerbGroup


class Verb(NamedTuple):
    """A curated verb: ``function`` of ``module`` is its Typer callback; the module's
    ``EPILOG`` (its examples) is its help's epilog, none when the module has no EPILOG."""

    name: str
    module: str
    function: str
    summary: str  # its line in the group's --help: the first sentence of its help


class SubGroup(NamedTuple):
    """A group inside a group (``webhooks secret``); ``summary`` is its help."""

    name: str
    summary: str
    verbs: tuple[Verb, ...]


Entry = Verb | SubGroup
# A built verb and its words below leadctl (("webhooks", "secret", "set")).
PrepareVerb = Callable[[Any, tuple[str, ...]], None]
PrepareGroup = Callable[[Any], None]


def verb_group(
    path: tuple[str, ...],
    help: str,
    entries: Sequence[Entry],
    prepare_verb: PrepareVerb,
    prepare_group: PrepareGroup,
) -> VerbGroup:
    """The group at ``path``, its ``entries`` built (and prepared) on first lookup."""
    group = VerbGroup(name=path[-1], help=help, rich_markup_mode=None)
    prepare_group(group)

    def factory(entry: Entry) -> Callable[[], Any]:
        def build() -> Any:
            words = (*path, entry.name)
            if isinstance(entry, SubGroup):
                return verb_group(words, entry.summary, entry.verbs, prepare_verb, prepare_group)
            command = verb_command(entry)
            prepare_verb(command, words)
            return command

        return build

    group.commands = LazyVerbs(
        {},
        {entry.name: factory(entry) for entry in entries},
        summaries={entry.name: entry.summary for entry in entries},
    )
    return group


def verb_command(verb: Verb) -> Any:
    """The verb's command as Typer builds it from the function (an app of one command
    and no callback is that command)."""
    module = importlib.import_module(verb.module)
    app = typer.Typer(add_completion=False, rich_markup_mode=None)
    app.command(verb.name, epilog=getattr(module, "EPILOG", None))(getattr(module, verb.function))
    return typer.main.get_command(app)

"""A group's verbs, declared in its package's ``__init__`` and loaded one at a time.

A group declares each verb once, in help order: its name and the one line ``leadctl GROUP
--help`` lists for it. Everything else follows from the name: the verb's module is its
words below the group joined by ``_`` (``leads import`` is ``leadctl.commands.leads.import_``,
``webhooks secret set`` is ``leadctl.commands.webhooks.secret_set``: a trailing ``_`` where
the name is a Python keyword or builtin), its Typer callback is that module's ``command``
(``verb_command(Options, run, help=...)``, leadctl/commands/_verb.py) and its help's epilog
the module's ``EPILOG``. The group's command lists the verbs from the declaration; a verb's
module is imported only when that verb is looked up (run, its --help, the generated docs),
never for the group's help or a sibling verb. tests/unit/test_group_help.py loads every verb
and checks its declared line; tests/unit/test_verb_shape.py that each module has the shape.
"""

from __future__ import annotations

import builtins
import importlib
import keyword
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import typer

from leadctl.cli.verb_group import LazyVerbs, VerbGroup

# The attribute of a verb's module that is its Typer callback.
COMMAND = "command"


class Verb(NamedTuple):
    """A curated verb, by its name (which names its module, see above)."""

    name: str
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


def verb_module(package: str, words: Sequence[str]) -> str:
    """The module of the verb at ``words`` below the group whose package is ``package``."""
    name = "_".join(word.replace("-", "_") for word in words)
    if keyword.iskeyword(name) or hasattr(builtins, name):
        name += "_"  # `import_`, `list_`, `set_`: a module named so shadows nothing
    return f"{package}.{name}"


def verb_group(
    path: tuple[str, ...],
    help: str,
    entries: Sequence[Entry],
    prepare_verb: PrepareVerb,
    prepare_group: PrepareGroup,
    *,
    package: str,
) -> VerbGroup:
    """The group at ``path`` (its package ``package``), its ``entries`` built (and
    prepared) on first lookup."""
    group = VerbGroup(name=path[-1], help=help, rich_markup_mode=None)
    prepare_group(group)

    def factory(entry: Entry) -> Callable[[], Any]:
        def build() -> Any:
            words = (*path, entry.name)
            if isinstance(entry, SubGroup):
                return verb_group(
                    words, entry.summary, entry.verbs, prepare_verb, prepare_group, package=package
                )
            command = verb_command(verb_module(package, words[1:]), entry.name)
            prepare_verb(command, words)
            return command

        return build

    group.commands = LazyVerbs(
        {},
        {entry.name: factory(entry) for entry in entries},
        summaries={entry.name: entry.summary for entry in entries},
    )
    return group


def verb_command(module_name: str, name: str) -> Any:
    """The command ``name`` of the verb module ``module_name``, as Typer builds it from the
    module's callback (an app of one command and no callback is that command); the
    module's EPILOG is its epilog, none when it has none."""
    module = importlib.import_module(module_name)
    app = typer.Typer(add_completion=False, rich_markup_mode=None)
    app.command(name, epilog=getattr(module, "EPILOG", None))(getattr(module, COMMAND))
    return typer.main.get_command(app)

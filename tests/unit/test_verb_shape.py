"""Every verb has the one shape docs/ARCHITECTURE.md documents (issue 35, point 4): its module,
named by the verb's words, has ``Options`` (a frozen dataclass whose fields carry their Typer
parameters), ``run(opts, ctx)`` and ``command = verb_command(Options, run, help=HELP)``; no
Typer callback is written by hand. Checked by walking the verb tables, so a verb declared the
old way (its flags in a hand-written function, copied into Options) fails here."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from leadctl.cli.groups import GROUPS
from leadctl.cli.verb_table import SubGroup, Verb, verb_module
from leadctl.commands._verb import declared_options

COMMANDS = Path(importlib.import_module("leadctl.commands").__file__ or "").parent


def _verbs(package: str, entries: Any, words: tuple[str, ...] = ()) -> Iterator[tuple[str, str]]:
    for entry in entries:
        if isinstance(entry, SubGroup):
            yield from _verbs(package, entry.verbs, (*words, entry.name))
        else:
            assert isinstance(entry, Verb)
            yield " ".join((*words, entry.name)), verb_module(package, (*words, entry.name))


def _every_verb() -> Iterator[tuple[str, Any]]:
    """(leadctl's words for it, its Typer callback) for every curated verb and command."""
    for group, (package, _summary) in GROUPS.items():
        module = importlib.import_module(package)
        verbs = getattr(module, "VERBS", None)
        if verbs is None:  # a single command: the group's app of one command
            (registered,) = module.app.registered_commands
            yield group, registered.callback
            continue
        for words, name in _verbs(package, verbs):
            yield f"{group} {words}", importlib.import_module(name).command


VERBS = dict(_every_verb())


@pytest.mark.parametrize("words", list(VERBS))
def test_every_verb_is_made_from_its_options_by_verb_command(words: str) -> None:
    callback = VERBS[words]
    options = declared_options(callback)
    assert options is not None, f"`{words}` is a Typer callback written by hand"
    assert dataclasses.is_dataclass(options)
    assert options.__dataclass_params__.frozen  # type: ignore[attr-defined]
    module = importlib.import_module(callback.__module__)
    assert options is module.Options
    opts, ctx, *rest = inspect.signature(module.run).parameters.values()
    assert (opts.name, ctx.name) == ("opts", "ctx")
    assert all(p.default is not p.empty for p in rest)  # what a test may hand it (a stop event)


@pytest.mark.parametrize("words", list(VERBS))
def test_the_command_line_is_the_options_fields_in_their_order(words: str) -> None:
    # Every parameter Typer builds comes from a field (none added by hand beside them).
    app = typer.Typer(add_completion=False)
    app.command()(VERBS[words])
    params = [param.name for param in typer.main.get_command(app).params]
    signature = [name for name in inspect.signature(VERBS[words]).parameters][1:]
    assert params == signature


def test_no_verb_module_writes_a_typer_callback_by_hand() -> None:
    # Also a module no table names yet: a function taking typer_ctx is the old way.
    hand_written = []
    for path in sorted(COMMANDS.glob("*/*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            params = node.args.args
            if params and params[0].arg == "typer_ctx":
                hand_written.append(f"{path.relative_to(COMMANDS)}: {node.name}")
    assert hand_written == []


@pytest.mark.parametrize(
    ("module_name", "engine_options"),
    [
        ("leadctl.commands.leads.import_", "ImportOptions"),
        ("leadctl.commands.batch.batch", "BatchOptions"),
    ],
)
def test_a_bulk_verbs_flags_are_its_engines_options(module_name: str, engine_options: str) -> None:
    # run hands the bulk engine its Options' values by field name: a flag added to one and
    # not the other fails here, not at the first import someone runs.
    from leadctl.bulk import options as bulk_options

    module = importlib.import_module(module_name)
    engine = getattr(bulk_options, engine_options)
    assert {f.name for f in dataclasses.fields(module.Options)} == {
        f.name for f in dataclasses.fields(engine)
    }

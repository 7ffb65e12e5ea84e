"""A group's Typer app, its one-line help read from ``leadctl.cli.groups`` (the line
``leadctl --help`` shows without loading the group), so the two cannot differ."""

from __future__ import annotations

from typing import Any

import typer

from leadctl.cli.groups import GROUPS


def group_app(name: str, *, one_verb: bool = False, **settings: Any) -> typer.Typer:
    """The app of the group ``name``; ``one_verb`` for a group of a single verb, which
    Typer would otherwise collapse into that verb (`leadctl GROUP VERB` would stop
    working)."""
    return subgroup_app(GROUPS[name][1], one_verb=one_verb, **settings)


def subgroup_app(help: str, *, one_verb: bool = False, **settings: Any) -> typer.Typer:
    """The app of a group inside a group (``webhooks secret``), whose help only its
    parent lists."""
    app = typer.Typer(help=help, no_args_is_help=True, **settings)
    if one_verb:
        app.callback()(_stays_a_group)
    return app


def _stays_a_group() -> None:
    # A callback (with no options of its own) is what keeps a one-verb app a group.
    pass

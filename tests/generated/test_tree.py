"""The lazy command tree: verbs are built on first lookup, listed in a stable order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import typer

from leadctl.cli.app import root
from leadctl.cli.generated_tree import pin_bundled
from leadctl.cli.verb_group import LazyVerbs
from tests.support.cli import Result


def test_verbs_are_built_on_first_lookup_only() -> None:
    built: list[str] = []

    def factory(name: str) -> Callable[[], str]:
        def build() -> str:
            built.append(name)
            return f"command {name}"

        return build

    verbs = LazyVerbs({"list": "curated list"}, {"send": factory("send"), "get": factory("get")})
    assert list(verbs) == ["list", "send", "get"] and len(verbs) == 3
    assert "get" in verbs and "nope" not in verbs and verbs.get("nope") is None
    assert verbs["get"] == "command get" and verbs["get"] == "command get"
    assert built == ["get"]
    assert list(verbs) == ["list", "send", "get"]  # building does not reorder
    verbs["extra"] = "x"
    del verbs["send"]
    assert list(verbs) == ["list", "get", "extra"] and built == ["get"]


def test_a_curated_verb_is_never_replaced() -> None:
    verbs = LazyVerbs({"list": "curated"}, {"list": lambda: "generated"})
    assert verbs["list"] == "curated" and len(verbs) == 1


def test_pinning_the_bundled_contract_ignores_imported_ones(
    import_contract: Callable[..., Result],
) -> None:
    import_contract()
    command: Any = typer.main.get_command(root)
    ctx = typer.Context(command, info_name="leadctl")
    pin_bundled(ctx)
    assert "widgets" not in command.list_commands(ctx)
    fresh = typer.Context(command, info_name="leadctl")
    assert "widgets" in command.list_commands(fresh)


def test_a_declared_line_stands_for_a_verb_until_it_is_built() -> None:
    verbs = LazyVerbs({}, {"list": lambda: "built list"}, summaries={"list": "List things."})
    assert verbs.summary("list") == "List things."
    verbs.add_pending({"list": lambda: "generated", "send": lambda: "built send"})
    assert list(verbs) == ["list", "send"] and verbs.summary("send") is None
    assert verbs["list"] == "built list" and verbs.summary("list") is None

"""The invocation's Context is data plus declared collaborators (issue 25, point 4): no
module keeps state in another object's ``__dict__``, and the rooms the Context wires (the
client, the credential it holds, the profile's settings, the embedded sandbox) are built from
pieces and never import the Context back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.unit.test_import_layering import real_edges

PACKAGE = Path(__file__).resolve().parents[2] / "leadctl"

WIRED_BY_THE_CONTEXT = (
    "leadctl.http.client",
    "leadctl.config.held_credential",
    "leadctl.oauth.session",
    "leadctl.config.profile_settings",
    "leadctl.sandbox_entry",
)


def dict_reaches(source: str) -> list[int]:
    """Lines of ``source`` that reach into an object's ``__dict__``: ``x.__dict__``,
    ``getattr(x, "__dict__")``, ``vars(x)``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            found.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            named = any(isinstance(a, ast.Constant) and a.value == "__dict__" for a in node.args)
            if (node.func.id == "vars" and node.args) or (node.func.id == "getattr" and named):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize(
    "planted",
    [
        'ctx.__dict__["_cache"] = 1',
        'found = ctx.__dict__.get("_cache")',
        'getattr(ctx, "__dict__", {}).setdefault("_cache", {})',
        'vars(ctx)["_cache"] = 1',
    ],
)
def test_each_way_into_a_dict_is_found(planted: str) -> None:
    assert dict_reaches(planted) == [1]


def test_no_module_keeps_state_in_another_objects_dict() -> None:
    # State a module keeps for the invocation is an attribute the Context declares.
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in dict_reaches(path.read_text(encoding="utf-8"))
    ]
    assert found == []


@pytest.mark.parametrize("module", WIRED_BY_THE_CONTEXT)
def test_what_the_context_wires_does_not_import_it(module: str) -> None:
    # Type-only imports included: the client gets callables and values, not the Context.
    edges = real_edges()
    assert any(importer == module for importer, _ in edges), f"{module} is not in the graph"
    assert (module, "leadctl.context") not in edges

"""The operation model's layers import one way: ``leadctl.generated``, ``leadctl.contract``,
``leadctl.operations``, ``leadctl.client`` and ``leadctl.context`` never import
``leadctl.commands`` (commands build on them, not the reverse), so there is no cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "leadctl"
LOWER = [
    *sorted((ROOT / "generated").glob("*.py")),
    *sorted((ROOT / "contract").glob("*.py")),
    ROOT / "operations.py",
    ROOT / "client.py",
    ROOT / "context.py",
    ROOT / "listing.py",
    ROOT / "query_options.py",
]


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


@pytest.mark.parametrize("path", LOWER, ids=lambda p: str(p.relative_to(ROOT)))
def test_lower_layers_never_import_commands(path: Path) -> None:
    found = {
        n for n in imported(path) if n == "leadctl.commands" or n.startswith("leadctl.commands.")
    }
    assert not found, f"{path.name} imports {sorted(found)}"

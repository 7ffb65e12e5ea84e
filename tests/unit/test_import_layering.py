"""Who may import whom (docs/ARCHITECTURE.md "Rooms"), checked on the real import graph.

grimp reads every import statement of ``leadctl`` and ``leadctl_sandbox``, the lazy ones
inside functions included, so a rule broken by a late ``from leadctl.commands.x import y``
is caught as surely as one at the top of a module.

- A command never imports another command: ``leadctl.commands.<group>`` may import itself
  and ``leadctl.commands._common`` only. What two groups share lives outside ``commands/``.
- Nothing outside ``leadctl.commands`` imports a command (``generated/``, ``contract/``,
  ``bulk/``, ``client``... are what commands build on; the root app loads groups by name).
- ``leadctl.output`` (any data, any format) never imports ``leadctl.views`` or
  ``leadctl.models`` (one resource's drawing and shape): views build on output.
- ``leadctl.util`` imports nothing else of leadctl, so anything may use it.
- Only ``leadctl.sandbox_entry`` imports the sandbox, and the sandbox imports no more of
  leadctl than ``leadctl.util`` (small shared utilities with no leadctl imports of their own).
"""

from __future__ import annotations

from collections.abc import Iterable

import grimp
import pytest

COMMANDS = "leadctl.commands"
SHARED_BY_COMMANDS = "leadctl.commands._common"
SANDBOX = "leadctl_sandbox"
SANDBOX_ENTRY = "leadctl.sandbox_entry"
SANDBOX_MAY_USE = "leadctl.util"
UTIL = "leadctl.util"
OUTPUT = "leadctl.output"
ABOVE_OUTPUT = ("leadctl.views", "leadctl.models")

Edge = tuple[str, str]


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _group(module: str) -> str | None:
    """The command group a module belongs to (``leadctl.commands.leads.list`` -> leads)."""
    if not module.startswith(COMMANDS + "."):
        return None
    return module.split(".")[2]


def broken_rule(importer: str, imported: str) -> str | None:
    """Why this import is not allowed, or None."""
    if _within(imported, COMMANDS) and imported != COMMANDS:
        if not _within(importer, COMMANDS):
            return "only commands import commands"
        if not _within(imported, SHARED_BY_COMMANDS) and _group(importer) != _group(imported):
            return "a command imports another command"
    if _within(importer, OUTPUT) and any(_within(imported, p) for p in ABOVE_OUTPUT):
        return "output never imports views or models"
    if _within(importer, UTIL) and _within(imported, "leadctl") and not _within(imported, UTIL):
        return "util imports nothing else of leadctl"
    if _within(imported, SANDBOX) and not _within(importer, SANDBOX) and importer != SANDBOX_ENTRY:
        return f"only {SANDBOX_ENTRY} imports the sandbox"
    sandbox_reaches_leadctl = _within(importer, SANDBOX) and _within(imported, "leadctl")
    if sandbox_reaches_leadctl and not _within(imported, SANDBOX_MAY_USE) and imported != "leadctl":
        return f"the sandbox imports no leadctl module but {SANDBOX_MAY_USE}"
    return None


def violations(edges: Iterable[Edge]) -> list[str]:
    found = []
    for importer, imported in edges:
        reason = broken_rule(importer, imported)
        if reason is not None:
            found.append(f"{importer} -> {imported}: {reason}")
    return sorted(found)


def real_edges() -> list[Edge]:
    graph = grimp.build_graph("leadctl", SANDBOX)
    return [
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
    ]


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.commands.leads.list", "leadctl.commands.sources.update"),
        ("leadctl.commands.leads", "leadctl.commands.sources"),
        ("leadctl.generated.run", "leadctl.commands.leads.list"),
        ("leadctl.bulk.engine", "leadctl.commands.batch"),
        ("leadctl.context", "leadctl_sandbox.server"),
        ("leadctl.commands.sandbox.serve", "leadctl_sandbox"),
        ("leadctl_sandbox.app", "leadctl.client"),
        ("leadctl.output.registry", "leadctl.views.console"),
        ("leadctl.output.table", "leadctl.models.page"),
        ("leadctl.util.isotime", "leadctl.datetimes"),
    ],
)
def test_each_rule_catches_what_it_forbids(importer: str, imported: str) -> None:
    assert violations([(importer, imported)]), f"{importer} -> {imported} slipped through"


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("leadctl.commands.leads.list", "leadctl.commands.leads._shared"),
        ("leadctl.commands.leads.list", "leadctl.commands._common"),
        ("leadctl.commands.leads", "leadctl.listing"),
        ("leadctl.sandbox_entry", "leadctl_sandbox.server"),
        ("leadctl_sandbox.store", "leadctl.util.isotime"),
        ("leadctl.views.number_status", "leadctl.output.cells"),
        ("leadctl.util.atomic", "leadctl.util.sigint"),
    ],
)
def test_what_the_rooms_allow_passes(importer: str, imported: str) -> None:
    assert violations([(importer, imported)]) == []


def test_the_tree_keeps_to_its_rooms() -> None:
    edges = real_edges()
    # The graph is the real one: leadctl's app reaches its groups' shared helper, and the
    # sandbox entry point reaches the sandbox.
    assert ("leadctl.sandbox_entry", SANDBOX) in {(a, b.split(".")[0]) for a, b in edges}
    assert any(_within(a, COMMANDS) and b == SHARED_BY_COMMANDS for a, b in edges)
    assert violations(edges) == []

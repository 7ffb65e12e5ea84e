"""A module's header says what it depends on: leadctl's own modules are imported inside a
function at two boundaries only (docs/ARCHITECTURE.md, "Start-up budget").

- The measured paths: what ``leadctl --help`` and a read (``lead-statuses list -o json``)
  load defers what they do not use, so both stay within their budgets (benchmarks/RESULTS.md;
  tests/e2e/test_startup_imports.py guards what they load).
- The wrappers of heavy libraries and engines a verb needs for some of its runs only:
  pydantic (``models``/``views``: a table, never -o json), the sandbox (``sandbox_entry``
  loads it when a command uses it), the bulk engine (``batch``'s module is its --help).
  (httpx is not among them: ``leadctl.http._httpx`` is a stand-in that loads httpx on first
  use, so every module imports it at its top.)

A group's verbs need no such care: a verb's module loads only when that verb is looked up
(``leadctl.cli.verb_table``), so it imports the webhooks server, the bulk runner or the
contract compiler at its top.

Anywhere else, an import inside a function is a dependency hidden from the reader.
"""

from __future__ import annotations

import ast
from pathlib import Path

import leadctl

PACKAGE = Path(leadctl.__file__).resolve().parent

MEASURED_PATHS = (
    # leadctl --help
    "leadctl.__main__", "leadctl.cli", "leadctl.iostreams",
    "leadctl.config.settings", "leadctl.config.private_files", "leadctl.contract.store",
    "leadctl.generated.startup", "leadctl.contract.profile_keys",
    # a group's and a verb's help (issue 32): a generated verb runs what its help never needs,
    # and `leads list --help` is the curated verb help measured
    "leadctl.generated.command", "leadctl.commands.leads.list_",
    "leadctl.docgen",
    # a read: lead-statuses list -o json
    "leadctl.context", "leadctl.commands.lead_statuses", "leadctl.output.registry",
    "leadctl.output.response_columns",
    "leadctl.cli.generated_tree", "leadctl.contract.catalogue", "leadctl.inputs.values",
    "leadctl.generated.prose",
    "leadctl.contract.operations", "leadctl.contract.body_schema", "leadctl.http.client",
    "leadctl.config.urls", "leadctl.verbkit.shared_reads", "leadctl.config.held_credential",
    "leadctl.config.profile_settings",
    # the same read with -p sandbox (issue 32): the sandbox found without platformdirs, a
    # curated verb's contract flags built only when the contract has some, the network's
    # certificate roots loaded only for a request that leaves the process
    "leadctl.sandbox_entry", "leadctl.generated.curated_params", "leadctl.http.one_shot",
)  # fmt: skip
HEAVY = ("leadctl.models", "leadctl.views", "leadctl_sandbox", "leadctl.bulk")


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def function_local_imports() -> list[tuple[str, str]]:
    """(importer, imported) for each import of leadctl's own modules inside a function,
    those under ``if TYPE_CHECKING:`` left out (they never run)."""
    found: list[tuple[str, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts).removesuffix(".__init__")

        def walk(node: ast.AST, in_function: bool, module: str = module) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    continue
                if in_function and isinstance(child, ast.ImportFrom) and child.module:
                    names = [child.module]
                    if child.module == "leadctl":
                        names = [f"leadctl.{alias.name}" for alias in child.names]
                    found.extend((module, n) for n in names if n.startswith("leadctl"))
                elif in_function and isinstance(child, ast.Import):
                    found.extend(
                        (module, a.name) for a in child.names if a.name.startswith("leadctl")
                    )
                inner = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                walk(child, in_function or inner)

        walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def test_own_modules_are_imported_inside_functions_only_at_the_two_boundaries() -> None:
    hidden = [
        f"{importer} -> {imported}"
        for importer, imported in function_local_imports()
        if not _within(importer, MEASURED_PATHS) and not _within(imported, HEAVY)
    ]
    assert hidden == []


def test_the_scan_sees_imports_inside_functions() -> None:
    # The rule above is only as good as the scan: it must find the start-up path's own.
    assert ("leadctl.__main__", "leadctl.cli.app") in function_local_imports()


def test_at_most_seventy_six_imports_of_own_modules_hide_inside_functions() -> None:
    # Issue 25's bound, counting the sandbox package's imports inside its wrapper too: past
    # it, the two boundaries above have grown into a second import graph again. The Context
    # is not counted: it is the factory that builds each collaborator on first use, so each
    # one's module is imported in the method that builds it (issue 32: a group's help makes
    # a Context and must not load the HTTP client or the credential store for it).
    # 72 since issue 33: the root looks up an alias, or the intent of a mistyped word, only
    # for a first word that names no command, and loads that machinery only then; a TAB's
    # `__complete-values` answers from its cache before Typer or the contract load.
    # 76 since the -p sandbox read was measured (issue 32): the four imports named with it
    # in MEASURED_PATHS.
    counted = [pair for pair in function_local_imports() if pair[0] != "leadctl.context"]
    assert len(counted) <= 76

"""leadctl reaches the sandbox through ``leadctl/sandbox_entry.py`` only, and the sandbox imports
nothing of leadctl but ``leadctl.util``, whose modules import nothing of leadctl: no import cycle
between the two packages."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "leadctl" / "sandbox_entry.py"
# The small utilities, written once for both packages (ISO 8601 parsing, ...).
SHARED = "leadctl.util"


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """Every module a file imports (absolute names), with ``importlib.import_module("x")``
    and ``__import__("x")`` calls on a literal name counted too."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and (
                (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                or (isinstance(node.func, ast.Name) and node.func.id == "__import__")
            )
        ):
            yield node.lineno, node.args[0].value


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def offenders(
    package_dir: Path, forbidden: str, *, allowed: set[Path], shared: str | None = None
) -> list[str]:
    found = []
    for path in sorted(package_dir.rglob("*.py")):
        if path in allowed:
            continue
        for line, module in imported_modules(path):
            if within(module, forbidden) and not (shared and within(module, shared)):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return found


def test_only_the_entry_point_of_leadctl_imports_the_sandbox() -> None:
    assert offenders(ROOT / "leadctl", "leadctl_sandbox", allowed={ENTRY}) == []


def test_the_entry_point_does_import_the_sandbox() -> None:
    # Guards the guard: the scan must see the imports it is meant to catch.
    assert any(within(m, "leadctl_sandbox") for _, m in imported_modules(ENTRY))


def test_the_sandbox_imports_nothing_of_leadctl_but_its_utilities() -> None:
    assert offenders(ROOT / "leadctl_sandbox", "leadctl", allowed=set(), shared=SHARED) == []


def test_the_utilities_import_nothing_of_leadctl() -> None:
    # What keeps the sandbox's use of leadctl.util free of cycles (and of leadctl's weight).
    assert offenders(ROOT / "leadctl" / "util", "leadctl", allowed=set()) == []


def test_the_scan_sees_every_form_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import leadctl_sandbox.db\n"
        "from leadctl_sandbox import serve\n"
        "def f():\n"
        "    from leadctl_sandbox.state import open_state\n"
        "    importlib.import_module('leadctl_sandbox.app')\n"
        "    __import__('leadctl_sandbox')\n"
        "import leadctl_sandboxes\n",
        encoding="utf-8",
    )
    found = [m for _, m in imported_modules(sample) if within(m, "leadctl_sandbox")]
    assert found == [
        "leadctl_sandbox.db",
        "leadctl_sandbox",
        "leadctl_sandbox.serve",
        "leadctl_sandbox.state",
        "leadctl_sandbox.state.open_state",
        "leadctl_sandbox.app",
        "leadctl_sandbox",
    ]


def test_running_the_sandbox_loads_no_leadctl_module_but_utilities(tmp_path: Path) -> None:
    # The dynamic side of the same rule: a whole embedded start and stop, then sys.modules.
    script = (
        "import sys\n"
        "from leadctl_sandbox.embedded import EmbeddedSandbox\n"
        f"box = EmbeddedSandbox(env={{'LEADCTL_DATA_DIR': {str(tmp_path)!r}}})\n"
        "box.start()\n"
        "import leadctl_sandbox.published as p\n"
        "p.published_bytes()\n"
        "box.stop()\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith('leadctl.')))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [name for name in proc.stdout.split() if not within(name, SHARED)] == []

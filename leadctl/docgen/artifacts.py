"""The checked-in generated files (completions/, man/) and whether they are current."""

from __future__ import annotations

import re
from pathlib import Path

from leadctl import __version__
from leadctl.docgen.completion import render_completion
from leadctl.docgen.man import render_man_pages
from leadctl.docgen.tree import CommandSpec, load_tree

COMPLETION_FILES = {
    "bash": "completions/leadctl.bash",
    "zsh": "completions/_leadctl",
    "fish": "completions/leadctl.fish",
}
MAN_DIR = "man"
_TH_DATE = re.compile(r"^\.TH \S+ 1 (\S+) ", re.MULTILINE)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


def _dated(page: str, existing: str | None, today: str) -> str:
    """A page keeps the date it has until its content changes: the date says when the
    page last changed, and regenerating an unchanged tree changes nothing."""
    found = _TH_DATE.search(existing or "")
    if found is None:
        return page
    same_date = page.replace(f" 1 {today} ", f" 1 {found.group(1)} ", 1)
    return existing if same_date == existing else page


def generated_files(root: Path, *, today: str, tree: CommandSpec | None = None) -> dict[str, str]:
    """Relative path -> content of every generated file for the project at ``root``."""

    tree = tree if tree is not None else load_tree()
    files = {path: render_completion(shell, tree) for shell, path in COMPLETION_FILES.items()}
    for name, page in render_man_pages(tree, date=today, version=__version__).items():
        path = f"{MAN_DIR}/{name}"
        files[path] = _dated(page, _read(root / path), today)
    return files


def stale_files(root: Path, files: dict[str, str]) -> tuple[list[str], list[str]]:
    """(generated files whose checked-in copy differs or is missing, man pages no longer
    generated)."""
    stale = [path for path, text in files.items() if _read(root / path) != text]
    leftover = sorted(
        f"{MAN_DIR}/{page.name}"
        for page in (root / MAN_DIR).glob("*.1")
        if f"{MAN_DIR}/{page.name}" not in files
    )
    return stale, leftover

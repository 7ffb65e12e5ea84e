"""Every module and package of ``leadctl/`` has a room in docs/ARCHITECTURE.md: the rooms
table is where a newcomer looks for what a file is, so a file the table does not name is lost."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "leadctl"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"


def room_names(text: str) -> set[str]:
    """The names in the first column of the "Rooms" table (`client.py`, `bulk/`, ...)."""
    section = text.split("## Rooms", 1)[1].split("\n## ", 1)[0]
    names: set[str] = set()
    for line in section.splitlines():
        cells = line.split("|")
        if line.startswith("|") and len(cells) > 2:
            names.update(re.findall(r"`([^`]+)`", cells[1]))
    return names


def loose_parts() -> set[str]:
    """What sits directly in leadctl/: modules as `name.py`, packages as `name/`."""
    modules = {p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}
    packages = {f"{p.name}/" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    return modules | packages


def test_every_module_of_leadctl_has_a_room() -> None:
    names = room_names(ARCHITECTURE.read_text(encoding="utf-8"))
    # `commands/<group>/` names the commands package.
    names |= {name.split("<", 1)[0] for name in names}
    assert sorted(loose_parts() - names) == []


def test_a_room_names_only_what_exists() -> None:
    names = room_names(ARCHITECTURE.read_text(encoding="utf-8"))
    own = {n for n in names if not n.startswith("leadctl_sandbox") and "<" not in n}
    assert sorted(own - loose_parts()) == []


MOST_LOOSE_MODULES = 10


def test_few_modules_sit_loose_in_the_package() -> None:
    # A module that is in no package is in no room a newcomer can open: rooms are packages.
    loose = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(loose) <= MOST_LOOSE_MODULES, loose


def _named_in_module_list(text: str) -> set[str]:
    """The module paths the "Every module" section names (`bulk/engine.py`, ...), and each
    group's verb modules (`commands/leads/`: `create.py`, ... as commands/leads/create.py)."""
    section = text.split("## Every module", 1)[1]
    named: set[str] = set()
    for line in section.splitlines():
        group = re.match(r"- `(commands/[a-z0-9_]+/)`: (.*)", line)
        if group:
            named.update(group[1] + verb for verb in re.findall(r"`([^`]+\.py)`", group[2]))
            continue
        item = re.match(r"- `([^`]+\.py)`", line)
        if item:
            named.add(item[1])
    return named


def test_every_module_is_named_with_its_job() -> None:
    # A module the list does not name is one a newcomer cannot find; one it names that
    # no longer exists misleads them.
    named = _named_in_module_list(ARCHITECTURE.read_text(encoding="utf-8"))
    modules = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "__pycache__" not in path.parts
        and not (path.parent.parent.name == "commands" and path.name == "__init__.py")
    }
    assert sorted(modules - named) == []
    assert sorted(named - modules) == []

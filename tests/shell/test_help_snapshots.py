"""Every --help, snapshotted, and held to the house style: it starts with what the command
does and a verb ends with at least two real examples.

    LEADCTL_UPDATE_SNAPSHOTS=1 uv run pytest tests/shell/test_help_snapshots.py

rewrites tests/shell/snapshots/ (and removes snapshots of commands that are gone);
review the diff like code.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from leadctl.docgen.text import split_examples
from leadctl.docgen.tree import CommandSpec, load_tree
from tests.support.cli import run_cli

SNAPSHOTS = Path(__file__).with_name("snapshots")
UPDATE = os.environ.get("LEADCTL_UPDATE_SNAPSHOTS", "") not in ("", "0")
TREE = load_tree()
COMMANDS = list(TREE.walk())
VERBS = [command for command in COMMANDS if not command.is_group]


def snapshot_name(command: CommandSpec) -> str:
    return "-".join(("leadctl", *command.path)) + ".txt"


def command_id(command: CommandSpec) -> str:
    return " ".join(command.path) or "leadctl"


@pytest.fixture
def help_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # Click sizes help from the terminal, which it reads from COLUMNS.
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("NO_COLOR", "1")


def help_text(command: CommandSpec) -> str:
    result = run_cli([*command.path, "--help"], env={"COLUMNS": "100", "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.mark.usefixtures("help_env")
@pytest.mark.parametrize("command", COMMANDS, ids=command_id)
def test_help_matches_its_snapshot(command: CommandSpec) -> None:
    text = help_text(command)
    snapshot = SNAPSHOTS / snapshot_name(command)
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        snapshot.write_text(text, encoding="utf-8")
        return
    assert snapshot.exists(), f"no snapshot; run with LEADCTL_UPDATE_SNAPSHOTS=1: {snapshot}"
    assert text == snapshot.read_text(encoding="utf-8")


def test_no_snapshot_of_a_command_that_is_gone() -> None:
    expected = {snapshot_name(command) for command in COMMANDS}
    orphans = sorted(p.name for p in SNAPSHOTS.glob("*.txt") if p.name not in expected)
    if UPDATE:
        for name in orphans:
            (SNAPSHOTS / name).unlink()
        return
    assert orphans == []


@pytest.mark.usefixtures("help_env")
@pytest.mark.parametrize("command", COMMANDS, ids=command_id)
def test_help_starts_with_what_the_command_does(command: CommandSpec) -> None:
    lines = help_text(command).splitlines()
    assert lines[0].startswith(f"Usage: {command.full_name}")
    assert lines[1] == ""
    assert lines[2].strip() and not lines[2].lstrip().startswith(("Options:", "Commands:"))


@pytest.mark.usefixtures("help_env")
@pytest.mark.parametrize("command", VERBS, ids=command_id)
def test_verb_help_ends_with_examples(command: CommandSpec) -> None:
    """At least two example command lines under an "Examples:" heading, last in --help."""
    _epilog, examples = split_examples(command.epilog)
    runnable = [line for line in examples if "leadctl" in line]
    assert len(runnable) >= 2, f"{command.full_name}: {len(runnable)} example(s)"
    text = help_text(command)
    tail = text.rsplit("Examples:", 1)[-1]
    assert "Examples:" in text and "Options:" not in tail

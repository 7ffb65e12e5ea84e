"""--help for copy and paste: the terminal's width, examples never cut inside a word,
group help with whole verb summaries, plain usage lines, no notes meant for developers."""

from __future__ import annotations

import re
import shlex

import pytest

from leadctl.cli.helpformat import first_sentence
from leadctl.docgen.text import split_examples
from leadctl.docgen.tree import CommandSpec, load_tree
from tests.support.cli import run_cli

TREE = load_tree()
COMMANDS = list(TREE.walk())
VERBS = [command for command in COMMANDS if not command.is_group]
GROUPS = [command for command in COMMANDS if command.is_group and command.path]


def command_id(command: CommandSpec) -> str:
    return " ".join(command.path) or "leadctl"


def help_at(command: CommandSpec, columns: int) -> str:
    result = run_cli([*command.path, "--help"], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def shown_examples(text: str) -> list[str]:
    """The example commands of a help text, continuation lines joined back."""
    tail = text.rsplit("Examples:", 1)[1]
    joined = re.sub(r" \\\n\s+", " ", tail)
    return [line.strip() for line in joined.splitlines() if line.strip()]


@pytest.mark.parametrize("columns", [80, 120])
@pytest.mark.parametrize("command", VERBS, ids=command_id)
def test_examples_are_whole_commands_at_any_width(command: CommandSpec, columns: int) -> None:
    text = help_at(command, columns)
    _epilog, examples = split_examples(command.epilog)
    assert shown_examples(text) == [" ".join(example.split()) for example in examples]
    tail = text.rsplit("Examples:", 1)[1]
    assert all(len(line) <= columns for line in tail.splitlines())
    # Each line is whole shell words: a break never falls inside quotes.
    for line in tail.splitlines():
        shlex.split(line.removesuffix(" \\"))


def test_help_uses_the_width_of_the_terminal() -> None:
    command = next(c for c in VERBS if c.path == ("status-changes", "update"))
    narrow = help_at(command, 80)
    wide = help_at(command, 120)
    assert max(len(line) for line in narrow.splitlines()) <= 80
    assert 100 < max(len(line) for line in wide.splitlines()) <= 120
    assert len(wide.splitlines()) < len(narrow.splitlines())


@pytest.mark.parametrize(
    "command", [c for c in VERBS if c.path[0] == "status-changes"], ids=command_id
)
def test_prose_never_breaks_a_flag_at_its_hyphen(command: CommandSpec) -> None:
    text = help_at(command, 80)
    assert not [line for line in text.splitlines() if re.search(r"--[a-z]+-$", line)]


@pytest.mark.parametrize("command", GROUPS, ids=command_id)
def test_group_help_shows_each_verb_summary_in_full(command: CommandSpec) -> None:
    text = " ".join(help_at(command, 80).split("Commands:", 1)[1].split())
    assert "..." not in text
    for verb in command.commands:
        assert " ".join(first_sentence(verb.help).split()) in text


@pytest.mark.parametrize("command", COMMANDS, ids=command_id)
def test_usage_shows_arguments_without_braces(command: CommandSpec) -> None:
    usage = help_at(command, 80).split("\n\n", 1)[0]
    assert "{" not in usage and "}" not in usage
    for argument in command.arguments:
        if argument.required:
            assert argument.value.metavar in usage


@pytest.mark.parametrize("command", COMMANDS, ids=command_id)
def test_help_says_nothing_about_the_reference(command: CommandSpec) -> None:
    text = " ".join(help_at(command, 120).split()).lower()
    assert "the reference" not in text

"""The checked-in man pages: current, lint-clean under mandoc, readable with man, and
saying what the code does (every group, exit code and example option exists)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

from leadctl.cli.groups import GROUPS
from leadctl.docgen import reference
from leadctl.docgen.text import split_examples
from leadctl.docgen.tree import CommandSpec, load_tree
from leadctl.errors import ExitCode
from tests.shell.conftest import REPO, require

MAN = REPO / "man"
ENVIRONMENT = [
    *("LEADCTL_PROFILE", "LEADCTL_BASE_URL", "LEADCTL_OUTPUT", "LEADCTL_TOKEN"),
    *("LEADCTL_TOKEN_FILE", "LEADCTL_CONFIG_DIR", "LEADCTL_DATA_DIR", "LEADCTL_DEBUG"),
    *("LEADCTL_TIMEOUT", "LEADCTL_PAGER", "PAGER", "NO_COLOR", "FORCE_COLOR"),
]


@pytest.fixture(scope="module")
def tree() -> CommandSpec:
    return load_tree()


def render(page: str, width: int = 80) -> str:
    """The page as man shows it, without a pager or terminal escapes."""
    require("man")
    env = {**os.environ, "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": str(width)}
    env.pop("MAN_KEEP_FORMATTING", None)
    result = subprocess.run(
        ["man", "-l", str(MAN / page)], env=env, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_generated_files_are_current() -> None:
    """The CI staleness check: fails when completions/ or man/ lag the command tree."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stderr


def test_one_page_per_group() -> None:
    pages = {path.name for path in MAN.glob("*.1")}
    assert pages == {"leadctl.1"} | {f"leadctl-{group}.1" for group in GROUPS}


def test_mandoc_lint_is_clean() -> None:
    """No message at all, style level included (mandoc -Tlint implies -Wall)."""
    require("mandoc")
    pages = sorted(str(path) for path in MAN.glob("*.1"))
    result = subprocess.run(
        ["mandoc", "-Tlint", *pages], capture_output=True, text=True, timeout=30
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_leadctl_1_renders_with_man() -> None:
    text = render("leadctl.1")
    for section in (
        "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT", "FILES",
        "EXIT STATUS", "EXAMPLES", "SEE ALSO",
    ):  # fmt: skip
        assert re.search(rf"^{section}$", text, re.MULTILINE), section
    assert max(len(line) for line in text.splitlines()) <= 80  # MANWIDTH, examples included
    # Option names stay whole: no hyphenation and copyable minus signs.
    assert "--allow-insecure-http" in text
    assert "leadctl-status-changes(1)" in text


def test_leadctl_1_documents_the_environment() -> None:
    environment = render("leadctl.1").split("\nENVIRONMENT\n")[1].split("\nFILES\n")[0]
    for name in ENVIRONMENT:
        # A short tag shares its line with the text.
        assert re.search(rf"^\s+{name}(\s|$)", environment, re.MULTILINE), name


def test_leadctl_1_documents_the_files() -> None:
    files = render("leadctl.1").split("\nFILES\n")[1].split("\nEXIT STATUS\n")[0]
    assert "config.toml" in files
    assert "credentials/" in files
    assert "sandbox/" in files


def test_exit_status_lists_every_exit_code() -> None:
    assert set(reference.EXIT_CODES) == set(ExitCode)
    exit_status = render("leadctl.1").split("\nEXIT STATUS\n")[1].split("\nEXAMPLES\n")[0]
    listed = [int(code) for code in re.findall(r"^\s{7}(\d+)\s", exit_status, re.MULTILINE)]
    assert listed == [int(code) for code in ExitCode]


def test_every_global_option_is_in_leadctl_1(tree: CommandSpec) -> None:
    options = render("leadctl.1").split("\nOPTIONS\n")[1].split("\nCOMMANDS\n")[0]
    for option in tree.options:
        for name in option.all_names:
            assert name in options, name


def test_a_group_page_documents_its_verbs_and_options(tree: CommandSpec) -> None:
    group = next(command for command in tree.commands if command.name == "sources")
    text = render("leadctl-sources.1")
    for verb in group.commands:
        assert f"leadctl sources {verb.name} [OPTIONS]" in text
        for option in verb.options:
            for name in option.all_names:
                assert name in text, f"{verb.name} {name}"
    assert "Examples:" in text


# -- examples name commands and options that exist ----------------------------------------

SHELL_OPERATORS = frozenset("();<>|&")


def leadctl_calls(example: str) -> list[list[str]]:
    """The argument lists of the leadctl invocations in one example line."""
    lexer = shlex.shlex(example, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    calls: list[list[str]] = []
    current: list[str] | None = None
    for token in lexer:
        if set(token) <= SHELL_OPERATORS:
            current = None
        elif current is not None:
            current.append(token)
        elif token == "leadctl":
            current = []
            calls.append(current)
    return calls


def unknown_words(tree: CommandSpec, args: list[str]) -> list[str]:
    """Options and command words in ``args`` that the command tree does not have."""
    command, problems, positional = tree, [], 0
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            option = next((o for o in command.options if name in o.all_names), None)
            if option is None:
                problems.append(f"{command.full_name} {name}")
            elif option.value is not None and "=" not in word:
                index += 1
            continue
        child = next((c for c in command.commands if c.name == word), None)
        if child is not None and positional == 0:
            command = child
        elif command.is_group:
            return [*problems, f"{command.full_name} {word}"]
        else:
            positional += 1
    return problems


def all_examples(tree: CommandSpec) -> list[tuple[str, str]]:
    examples = [("leadctl(1)", line) for _text, lines in reference.EXAMPLES for line in lines]
    for command in tree.walk():
        examples += [(command.full_name, line) for line in split_examples(command.epilog)[1]]
    return examples


def test_examples_use_real_commands_and_options(tree: CommandSpec) -> None:
    problems = []
    for where, example in all_examples(tree):
        for args in leadctl_calls(example):
            problems += [
                f"{where}: {example!r}: unknown {word}" for word in unknown_words(tree, args)
            ]
    assert problems == []


def test_the_example_checker_finds_unknown_options(tree: CommandSpec) -> None:
    assert unknown_words(tree, ["leads", "list", "--bogus"]) == ["leadctl leads list --bogus"]
    assert unknown_words(tree, ["-p", "x", "nosuchgroup", "verb"]) == ["leadctl nosuchgroup"]
    assert unknown_words(tree, ["leads", "list", "--filter", "a=b", "-o", "csv"]) == []
    assert leadctl_calls("NEW=$(leadctl sources rotate s --yes) && echo") == [
        ["sources", "rotate", "s", "--yes"]
    ]
    assert leadctl_calls("leadctl a | jq '.[] | .id' > out # note") == [["a"]]

"""What a developer sees when a verb is written wrong (issue 35, point 9): --debug shows the
traceback of every unexpected error, also one raised while the command tree is built, before
the root callback has read --debug; a verb module without EPILOG still runs."""

from __future__ import annotations

import pytest

from leadctl.cli.groups import GROUPS
from tests.support.cli import ORG_KEY, run_cli, token_env

MESSAGE = "error: unexpected RuntimeError; run with --debug for a traceback"


@pytest.fixture(autouse=True)
def _group_of_wrong_verbs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GROUPS, "wrong", ("tests.fixtures.verbs", "Verbs written wrong."))
    monkeypatch.delenv("LEADCTL_DEBUG", raising=False)


@pytest.mark.parametrize(
    "args",
    [
        ["--debug", "wrong", "broken"],
        ["wrong", "broken", "--debug"],  # after the verb: parsed only once the verb is built
        ["wrong", "--debug", "broken"],
    ],
)
def test_debug_shows_the_traceback_of_a_verb_module_that_fails_to_load(args: list[str]) -> None:
    result = run_cli(args, env=token_env())
    assert result.exit_code == 1
    assert "Traceback (most recent call last):" in result.stderr
    assert "tests/fixtures/verbs/broken.py" in result.stderr
    assert "RuntimeError: planted while loading" in result.stderr
    assert MESSAGE in result.stderr


def test_the_traceback_keeps_credentials_redacted() -> None:
    result = run_cli(["wrong", "broken", "--debug"], env=token_env())
    assert "RuntimeError: planted while loading" in result.stderr
    assert ORG_KEY not in result.stderr


def test_leadctl_debug_shows_it_too() -> None:
    result = run_cli(["wrong", "broken"], env={**token_env(), "LEADCTL_DEBUG": "true"})
    assert "Traceback (most recent call last):" in result.stderr


def test_without_debug_one_line_and_no_traceback() -> None:
    result = run_cli(["wrong", "broken", "--", "--debug"], env=token_env())
    assert result.exit_code == 1
    assert result.stderr == MESSAGE + "\n"


def test_a_verb_module_without_epilog_runs_and_shows_its_help() -> None:
    ran = run_cli(["wrong", "plain"], env=token_env())
    assert (ran.exit_code, ran.stdout, ran.stderr) == (0, "hello\n", "")
    shown = run_cli(["wrong", "plain", "--help"], env=token_env())
    assert shown.exit_code == 0, shown.stderr
    assert "Say hello; no examples." in shown.stdout

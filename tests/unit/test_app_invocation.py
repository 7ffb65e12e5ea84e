"""cli.md "Invocation": global options anywhere, help when nothing is asked, did you mean."""

from __future__ import annotations

import json

import pytest
import typer
from pytest_httpx import HTTPXMock

from leadctl.cli import app
from tests.support.cli import BASE_URL, run_cli, token_env

LEADS_URL = f"{BASE_URL}/leads/all/my"


def test_profile_after_the_verb_is_the_global_option() -> None:
    result = run_cli(["leads", "list", "--limit", "1", "-p", "nope"], env=token_env())
    assert result.exit_code == 2
    assert "unknown profile 'nope'" in result.stderr


@pytest.mark.parametrize("spelling", [["--profile", "nope"], ["--profile=nope"], ["-pnope"]])
def test_every_spelling_of_a_global_option_is_moved(spelling: list[str]) -> None:
    result = run_cli(["lead-statuses", "list", *spelling], env=token_env())
    assert "unknown profile 'nope'" in result.stderr


def test_dry_run_and_debug_after_the_verb(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["lead-statuses", "list", "--dry-run", "--debug"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl ")
    assert f"{BASE_URL}/lead-statuses" in result.stdout
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("flag", "message"),
    [(["--timeout", "0"], "--timeout"), (["--max-retries", "-1"], "--max-retries")],
)
def test_valued_global_options_after_the_verb_are_checked_by_the_root(
    flag: list[str], message: str
) -> None:
    result = run_cli(["lead-statuses", "list", *flag], env=token_env())
    assert result.exit_code == 2
    assert message in result.stderr
    assert "No such option" not in result.stderr


def test_no_color_and_quiet_after_the_verb(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[{"id": "s1", "name": "New"}])
    result = run_cli(["lead-statuses", "list", "--no-color", "-o", "json", "-q"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == [{"id": "s1", "name": "New"}]


def test_an_option_value_that_looks_like_a_global_option_stays_a_value(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(url=LEADS_URL, json={"items": []})
    result = run_cli(["leads", "list", "--search", "-p", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert json.loads(request.content)["search"] == "-p"


def test_a_verbs_own_option_of_the_same_name_stays_with_the_verb() -> None:
    # auth login's --base-url is the address it logs in to, not the global option.
    root = typer.main.get_command(app.root)
    auth = root.get_command(typer.Context(root, info_name="leadctl"), "auth")
    login = auth.get_command(typer.Context(auth, info_name="auth"), "login")
    owners = [param for param in login.params if "--base-url" in param.opts]
    assert len(owners) == 1
    assert owners[0].expose_value


def test_nothing_after_a_double_dash_is_a_global_option() -> None:
    result = run_cli(["leads", "import", "--", "-p", "nope"], env=token_env())
    assert "unknown profile 'nope'" not in result.stderr


def test_global_options_between_the_group_and_the_verb() -> None:
    result = run_cli(["lead-statuses", "-p", "nope", "list"], env=token_env())
    assert result.exit_code == 2
    assert "unknown profile 'nope'" in result.stderr


@pytest.mark.parametrize("argv", [["leads", "--debug"], ["webhooks", "secret"]])
def test_a_group_with_only_options_or_a_nested_group_prints_its_help(argv: list[str]) -> None:
    result = run_cli(argv)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Usage: leadctl {argv[0]} ")


def test_a_later_global_option_wins_over_an_earlier_one() -> None:
    result = run_cli(["-p", "also-nope", "lead-statuses", "list", "-p", "nope"], env=token_env())
    assert "unknown profile 'nope'" in result.stderr


@pytest.mark.parametrize("argv", [[], ["leads"], ["status-changes"]])
def test_nothing_asked_prints_the_help_and_exits_0(argv: list[str]) -> None:
    result = run_cli(argv)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: {' '.join(['leadctl', *argv])} [OPTIONS] COMMAND")
    assert result.stderr == ""


@pytest.mark.parametrize("argv", [["--debug"], ["-p", "nope", "-q"]])
def test_only_global_options_print_the_help_and_exit_0(argv: list[str]) -> None:
    result = run_cli(argv)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Usage: leadctl [OPTIONS] COMMAND")


@pytest.mark.parametrize(
    ("argv", "unknown", "suggestion"),
    [
        (["sorces", "update", "x"], "'sorces'", "`leadctl sources update`"),
        (["status-change", "update", "x"], "'status-change'", "`leadctl status-changes update`"),
        (["lead", "list"], "'lead'", "`leadctl leads list`"),
        (["sorces", "nosuchverb"], "'sorces'", "`leadctl sources`"),
        (["leads", "lst"], "'lst'", "`leadctl leads list`"),
        (["status-changes", "updte", "x"], "'updte'", "`leadctl status-changes update`"),
    ],
)
def test_a_mistyped_group_or_verb_gets_did_you_mean(
    argv: list[str], unknown: str, suggestion: str
) -> None:
    result = run_cli(argv)
    assert result.exit_code == 2
    first, second = result.stderr.splitlines()[:2]
    assert first.startswith("error: unknown command " + unknown)
    assert second.startswith("did you mean ") and suggestion in second


def test_a_name_like_nothing_gets_the_help_pointer() -> None:
    result = run_cli(["zzzzqqq"])
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr
    assert "`leadctl --help`" in result.stderr


def test_a_missing_id_without_a_list_operation_stays_a_usage_error(
    httpx_mock: HTTPXMock,
) -> None:
    # The bundled contract has no list of status changes: nothing to pick from.
    result = run_cli(["status-changes", "update", "--notes", "x"], env=token_env(), tty=True)
    assert result.exit_code == 2
    assert "Missing argument 'ID'" in result.stderr
    assert httpx_mock.get_requests() == []


def test_the_picker_library_loads_only_when_a_picker_is_shown() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, contextlib, io\nfrom leadctl.cli.app import invoke\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    invoke(['leads', '--help'])\n"
        "print(any(m in sys.modules for m in ('questionary', 'prompt_toolkit')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_options_added_to_the_root_later_move_too(httpx_mock: HTTPXMock) -> None:
    # --jq came after the others: each verb copies the root's options, whatever they are.
    httpx_mock.add_response(url=f"{BASE_URL}/lead-statuses", json=[{"id": "s1", "name": "New"}])
    result = run_cli(["lead-statuses", "list", "--jq", ".[0].name"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "New\n"


def test_a_missing_argument_is_the_one_subclass_of_typers_bad_parameter() -> None:
    # cli/failures.py _is_missing relies on it (Typer exports BadParameter, not MissingParameter): a
    # Typer upgrade that adds another subclass must not offer the picker for it.
    assert [kind.__name__ for kind in typer.BadParameter.__subclasses__()] == ["MissingParameter"]

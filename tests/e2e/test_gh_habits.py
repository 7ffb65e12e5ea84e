"""Habits a gh user brings (issue 23 point 11), through the installed leadctl: `api PATH`
without a method, `help GROUP [VERB]`, `version`, and `auth login` asking for the base URL
on a terminal.

Help is printed by Click to the process's stdout and stays installed; so does each exit code,
stdin and the terminal. A table's second row, a test's second command and the read after a
login run in-process (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json

import pytest

from leadctl import __version__
from tests.support.e2e import run_leadctl, run_leadctl_terminal
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv
from tests.support.sandbox_server import SandboxProcess

SANDBOX = ["-p", "sandbox"]


def test_api_without_a_method_is_a_get(sandbox: SandboxProcess, org_env: CredentialEnv) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["api", "/lead-statuses"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["name"]
    assert [(r["method"], r["path"]) for r in sandbox.requests()] == [("GET", "/lead-statuses")]


@pytest.mark.parametrize(
    "body", [["-F", "pageSize=2"], ["-f", "search=ada"], ["--input", "-"]], ids=str
)
def test_api_without_a_method_is_a_post_when_a_body_is_given(
    sandbox: SandboxProcess, org_env: CredentialEnv, body: list[str]
) -> None:
    sandbox.clear_requests()
    # The form fields' row in-process; the first and the one that reads stdin installed.
    run = run_in_process if body[0] == "-f" else run_leadctl
    result = run(["api", "/leads/all/my", *body], env=org_env, stdin='{"pageSize": 2}')
    assert result.exit_code == 0, result.stderr
    assert "items" in json.loads(result.stdout)
    assert [(r["method"], r["path"]) for r in sandbox.requests()] == [("POST", "/leads/all/my")]


def test_api_paginate_without_a_method_reads_every_page(
    sandbox: SandboxProcess, org_env: CredentialEnv
) -> None:
    sandbox.clear_requests()
    result = run_leadctl(["api", "/lead-status-changes/all", "--paginate", "-o", "ndjson"],
                         env=org_env)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) > 25  # more than one page
    methods = {(r["method"], r["path"]) for r in sandbox.requests()}
    assert methods == {("POST", "/lead-status-changes/all")}
    refused = run_in_process(["api", "GET", "/lead-statuses", "--paginate"], env=org_env)
    assert refused.exit_code == 2
    assert "RequestDataOptions" not in refused.stderr and "POST" in refused.stderr


def test_api_with_a_method_sends_that_method(org_env: CredentialEnv) -> None:
    result = run_leadctl(["--dry-run", "api", "DELETE", "/tags/TAG_ID", "-f", "x=1"], env=org_env)
    assert result.exit_code == 0, result.stderr
    assert "-X DELETE" in result.stdout and "/tags/TAG_ID?x=1" in result.stdout
    missing = run_in_process(["api"], env=org_env)
    assert missing.exit_code == 2 and "missing PATH" in missing.stderr


@pytest.mark.parametrize("path", [["leads"], ["leads", "list"], ["sources", "get"], []], ids=str)
def test_help_names_what_help_after_the_command_shows(path: list[str]) -> None:
    by_help = run_leadctl([*SANDBOX, "help", *path])
    by_flag = run_in_process([*SANDBOX, *path, "--help"])  # the same help, compared
    assert by_help.exit_code == by_flag.exit_code == 0, by_help.stderr
    assert by_help.stdout == by_flag.stdout
    assert by_help.stdout.startswith(f"Usage: {' '.join(['leadctl', *path])}")


def test_help_of_an_unknown_verb_says_did_you_mean() -> None:
    result = run_leadctl(["help", "leads", "lst"])
    assert result.exit_code == 2
    assert "`leadctl help leads list`" in result.stderr


def test_help_man_has_the_active_contracts_verbs() -> None:
    page = run_leadctl([*SANDBOX, "help", "--man", "sources"])
    assert page.exit_code == 0, page.stderr
    assert page.stdout.startswith(".TH LEADCTL\\-SOURCES 1 ")
    assert "leadctl sources list" in page.stdout  # generated from the sandbox's contract
    bundled = run_leadctl(["help", "--man", "sources"])
    assert "leadctl sources list" not in bundled.stdout


def test_version_is_a_command_too() -> None:
    for line, run in ((["version"], run_in_process), (["--version"], run_leadctl)):
        result = run(line)
        assert result.exit_code == 0, result.stderr
        assert result.stdout == f"leadctl {__version__}\n"


def test_auth_login_on_a_terminal_asks_for_the_base_url(sandbox: SandboxProcess) -> None:
    result = run_leadctl_terminal(
        ["-p", "asked", "auth", "login", "--insecure-storage", "--no-contract"],
        answers=[
            (b"Base URL of the service", sandbox.base_url.encode() + b"\r"),
            (b"Paste the credential", sandbox.credentials.org.encode() + b"\r"),
        ],
    )
    assert result.exit_code == 0, result.stdout
    assert "logged in: profile asked" in result.stdout
    assert sandbox.credentials.org not in result.stdout
    listed = run_in_process(["-p", "asked", "lead-statuses", "list", "-o", "json"])
    assert listed.exit_code == 0, listed.stderr


def test_auth_login_without_a_terminal_names_the_flag(sandbox: SandboxProcess) -> None:
    sandbox.clear_requests()
    result = run_leadctl(
        ["-p", "piped", "auth", "login", "--with-token", "--insecure-storage"],
        stdin=sandbox.credentials.org + "\n",
    )
    assert result.exit_code == 2
    assert "--base-url" in result.stderr
    assert sandbox.requests() == []

"""`leadctl users compliance`: the installed CLI against the sandbox.

Each update whose answer or refusal is tested meets the installed program; re-reading the
user a test compares against and a test's second update run in-process (``run_in_process``:
the same command tree and socket)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess

pytestmark = pytest.mark.e2e

Env = dict[str, str]
FLAGS = ("acceptedTerms", "acceptedToSubscription", "acceptedSms", "acceptedBaa", "acceptedEmail")


def current_user(env: Env) -> dict[str, Any]:
    """The user as the service has it now, re-read with an update that changes nothing."""
    result = run_in_process(
        ["api", "PUT", "/users/compliance", "--input", "-"], env=env, stdin='{"compliance": null}'
    )
    assert result.exit_code == 0, result.stderr
    user: dict[str, Any] = json.loads(result.stdout)
    return user


def test_only_the_given_flags_change(sandbox: SandboxProcess, org_env: Env) -> None:
    before = current_user(org_env)["compliance"]
    sandbox.clear_requests()
    first = run_leadctl(
        [
            "users",
            "compliance",
            "--no-accepted-sms",
            "--accepted-baa",
            "--source",
            "cli-e2e",
            "-o",
            "json",
        ],
        env=org_env,
    )
    assert first.exit_code == 0, first.stderr
    [sent] = [r["body"] for r in sandbox.requests() if r["operationId"] == "updateUserCompliance"]
    assert sent == {"compliance": {"acceptedSms": False, "acceptedBaa": True}, "source": "cli-e2e"}
    returned = json.loads(first.stdout)["compliance"]
    assert returned["acceptedSms"] is False and returned["acceptedBaa"] is True
    unchanged = ("acceptedTerms", "acceptedToSubscription", "acceptedEmail")
    assert {f: returned[f] for f in unchanged} == {f: before[f] for f in unchanged}

    second = run_in_process(["users", "compliance", "--accepted-sms"], env=org_env)
    assert second.exit_code == 0, second.stderr
    after = current_user(org_env)["compliance"]
    assert after["acceptedSms"] is True
    assert after["acceptedBaa"] is True  # the first update persisted
    assert {f: after[f] for f in unchanged} == {f: before[f] for f in unchanged}


def test_terminal_shows_the_user_and_every_flag(org_env: Env) -> None:
    result = run_leadctl_tty(
        ["users", "compliance", "--no-accepted-email", "--accepted-terms"], env=org_env
    )
    assert result.exit_code == 0, result.stderr
    rows = {
        field: value.strip()
        for field, _, value in (
            line.partition(" ")
            for line in re.sub(r"\x1b\[[0-9;]*m", "", result.stdout).splitlines()
        )
    }
    user = current_user(org_env)
    assert rows["name"] == user["name"]
    assert rows["email"] == user["email"]
    assert rows["compliance.acceptedEmail"] == "no"
    assert rows["compliance.acceptedTerms"] == "yes"
    for flag in FLAGS:
        assert rows[f"compliance.{flag}"] == ("yes" if user["compliance"][flag] else "no")


def test_nothing_to_update_and_source_keys_send_nothing(
    sandbox: SandboxProcess, org_env: Env, source_env: Env
) -> None:
    sandbox.clear_requests()
    empty = run_leadctl(["users", "compliance", "--source", "cli"], env=org_env)
    assert empty.exit_code == 2
    assert "nothing to update" in empty.stderr
    refused = run_leadctl(["users", "compliance", "--accepted-sms"], env=source_env)
    assert refused.exit_code == 4
    assert empty.stdout == refused.stdout == ""
    assert sandbox.requests() == []

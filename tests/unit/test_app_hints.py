"""Hints that lead the right way: the profile in use, the URL that failed."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env

CREATE_URL = f"{BASE_URL}/leads"
PENDING = {"id": "lead_new", "processingStatus": "Pending"}


def make_profile(name: str) -> None:
    """Profile ``name`` beside "default", which stays the current one."""
    for profile in ("default", name):
        result = run_cli(["-p", profile, "profile", "set", "base_url", BASE_URL])
        assert result.exit_code == 0, result.stderr


def no_token_env() -> dict[str, str]:
    return {"LEADCTL_TOKEN": "", "LEADCTL_TOKEN_FILE": ""}


@pytest.mark.usefixtures("memory_keyring")
def test_a_hint_for_another_profile_carries_it() -> None:
    make_profile("prod")
    result = run_cli(["-p", "prod", "lead-statuses", "list"], env=no_token_env())
    assert result.exit_code == 3
    assert "`leadctl -p prod auth login`" in result.stderr


@pytest.mark.usefixtures("memory_keyring")
def test_a_hint_in_json_errors_carries_it_too() -> None:
    make_profile("prod")
    result = run_cli(["-p", "prod", "-o", "json", "lead-statuses", "list"], env=no_token_env())
    assert result.exit_code == 3
    assert "`leadctl -p prod auth login`" in json.loads(result.stderr)["hint"]


@pytest.mark.usefixtures("memory_keyring")
def test_a_hint_for_the_current_profile_needs_no_flag() -> None:
    make_profile("prod")
    assert run_cli(["profile", "use", "prod"]).exit_code == 0
    for env in (no_token_env(), {**no_token_env(), "LEADCTL_PROFILE": "prod"}):
        result = run_cli(["lead-statuses", "list"], env=env)
        assert result.exit_code == 3
        assert "`leadctl auth login`" in result.stderr


@pytest.mark.usefixtures("memory_keyring")
def test_a_profile_typed_with_p_is_carried_even_when_it_is_the_current_one() -> None:
    # Copied later, when another profile may be current, the command must still say it.
    make_profile("prod")
    assert run_cli(["profile", "use", "prod"]).exit_code == 0
    result = run_cli(["-p", "prod", "lead-statuses", "list"], env=no_token_env())
    assert result.exit_code == 3
    assert "`leadctl -p prod auth login`" in result.stderr


@pytest.mark.usefixtures("memory_keyring")
def test_a_hint_that_names_a_profile_keeps_its_own() -> None:
    result = run_cli(["-p", "nope", "lead-statuses", "list"], env=no_token_env())
    assert result.exit_code == 2
    assert "`leadctl auth login --profile NAME`" in result.stderr
    assert "`leadctl -p nope profile set`" in result.stderr


def test_leads_create_suggests_a_check_for_the_same_profile(httpx_mock: HTTPXMock) -> None:
    make_profile("intake")
    httpx_mock.add_response(method="POST", url=CREATE_URL, json=PENDING)
    result = run_cli(
        ["-p", "intake", "leads", "create", "--field", "email=a@b.test"],
        env={"LEADCTL_TOKEN": ORG_KEY},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    assert "`leadctl -p intake leads list --filter id=lead_new`" in result.stderr


def test_a_connection_error_names_the_url(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("connection refused"))
    result = run_cli(
        ["--max-retries", "0", "lead-statuses", "list"],
        env={"LEADCTL_TOKEN": ORG_KEY, "LEADCTL_BASE_URL": BASE_URL},
    )
    assert result.exit_code == 8
    assert f"cannot connect to {BASE_URL}/lead-statuses" in result.stderr


def test_the_resume_line_of_a_stopped_import_carries_the_profile(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    make_profile("intake")
    httpx_mock.add_response(method="POST", url=CREATE_URL, status_code=401, json={"title": "No"})
    rows = tmp_path / "rows.ndjson"
    rows.write_text('{"email": "a@b.test"}\n', encoding="utf-8")
    report = tmp_path / "report.ndjson"
    result = run_cli(
        ["-p", "intake", "leads", "import", str(rows), "--report", str(report)],
        env={"LEADCTL_TOKEN": ORG_KEY},
    )
    assert result.exit_code == 3
    assert f"to go on: leadctl -p intake leads import {rows} --resume {report}" in result.stderr


@pytest.mark.parametrize("output", [[], ["-o", "json"]])
def test_a_credential_the_service_quotes_back_in_its_error_is_masked(
    httpx_mock: HTTPXMock, output: list[str]
) -> None:
    # Masked twice: in the problem the client decodes, and again in the message
    # cli/failures.py prints (this test fails only with both layers gone).
    httpx_mock.add_response(
        method="GET",
        url=f"{BASE_URL}/lead-statuses",
        status_code=403,
        json={"title": "Forbidden", "detail": f"key {ORG_KEY} may not read this"},
    )
    result = run_cli(["lead-statuses", "list", *output], env=token_env())
    assert result.exit_code == 4
    assert "Forbidden" in result.stderr
    assert ORG_KEY not in result.stderr

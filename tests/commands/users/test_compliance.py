"""``leadctl users compliance`` in process.

`leadctl users compliance`: only the flags given are sent; output of the returned user."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

import leadctl
from tests.commands.users._support import URL, USER, sent_json
from tests.support.cli import BASE_URL, ORG_KEY, run_cli, token_env
from tests.support.run_context import direct_context, stdout_of


@pytest.mark.parametrize(
    ("argv", "body"),
    [
        (["--accepted-terms"], {"compliance": {"acceptedTerms": True}}),
        (["--no-accepted-terms"], {"compliance": {"acceptedTerms": False}}),
        (["--accepted-to-subscription"], {"compliance": {"acceptedToSubscription": True}}),
        (["--no-accepted-sms"], {"compliance": {"acceptedSms": False}}),
        (["--accepted-baa"], {"compliance": {"acceptedBaa": True}}),
        (["--no-accepted-email"], {"compliance": {"acceptedEmail": False}}),
        (
            ["--accepted-terms", "--no-accepted-sms", "--source", "cli"],
            {"compliance": {"acceptedTerms": True, "acceptedSms": False}, "source": "cli"},
        ),
        (
            [
                "--accepted-terms",
                "--accepted-to-subscription",
                "--accepted-sms",
                "--accepted-baa",
                "--accepted-email",
            ],
            {
                "compliance": {
                    "acceptedTerms": True,
                    "acceptedToSubscription": True,
                    "acceptedSms": True,
                    "acceptedBaa": True,
                    "acceptedEmail": True,
                }
            },
        ),
        # The last of a pair wins, as with every flag.
        (["--accepted-terms", "--no-accepted-terms"], {"compliance": {"acceptedTerms": False}}),
    ],
)
def test_sends_only_the_flags_given(
    httpx_mock: HTTPXMock, argv: list[str], body: dict[str, Any]
) -> None:
    httpx_mock.add_response(method="PUT", url=URL, json=USER)
    result = run_cli(["users", "compliance", *argv], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert sent_json(httpx_mock) == [body]
    assert json.loads(result.stdout) == USER


def test_table_shows_name_email_and_flags(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=URL, json=USER)
    result = run_cli(
        ["--no-color", "users", "compliance", "--accepted-terms"], env=token_env(), tty=True
    )
    assert result.exit_code == 0, result.stderr
    rows = {
        line.split()[0]: line.split()[-1] for line in result.stdout.splitlines() if line.strip()
    }
    assert rows["name"] == "Lovelace"
    assert rows["email"] == "ada@example.test"
    assert rows["compliance.acceptedTerms"] == "yes"
    assert rows["compliance.acceptedToSubscription"] == "no"
    assert rows["compliance.acceptedEmail"] == "yes"
    assert rows["roles"] == "Admin"  # a list is shown, never left out silently (issue 34)


def test_csv_of_chosen_columns(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=URL, json=USER)
    result = run_cli(
        [
            "users",
            "compliance",
            "--accepted-sms",
            "-o",
            "csv",
            "--columns",
            "email,compliance.acceptedSms",
        ],
        env=token_env(),
    )
    assert result.stdout == "email,compliance.acceptedSms\nada@example.test,true\n"


@pytest.mark.parametrize(
    "argv",
    [[], ["--source", "cli"], ["--accepted-terms=yes"], ["--accepted-everything"]],
)
def test_nothing_to_update_or_bad_flag_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, argv: list[str]
) -> None:
    result = run_cli(["users", "compliance", *argv], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []


def test_source_alone_says_there_is_nothing_to_update(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["users", "compliance", "--source", "cli"], env=token_env())
    assert "nothing to update" in result.stderr


def test_no_flag_without_a_current_user_read_says_so(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    env = {**token_env(), "LEADCTL_CACHE_DIR": str(tmp_path / "cache")}
    result = run_cli(["users", "compliance"], env=env)
    assert result.exit_code == 2
    assert "the active contract has no operation that reads the current user" in result.stderr
    assert "contract pull" in result.stderr


def test_no_flag_shows_the_current_settings_where_the_contract_can_read_them(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    document = json.loads((Path(leadctl.__file__).parent / "contract/openapi.json").read_text())
    document["paths"]["/users/me"] = {
        "get": {
            "operationId": "getCurrentUser",
            "tags": ["Users"],
            "summary": "The current user.",
            "security": [{"bearerAuth": []}],
            "responses": {
                "200": {
                    "description": "The user.",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/User"}}
                    },
                }
            },
        }
    }
    contract = tmp_path / "contract.json"
    contract.write_text(json.dumps(document))
    env = {**token_env(), "LEADCTL_CACHE_DIR": str(tmp_path / "cache")}
    imported = run_cli(["contract", "import", str(contract)], env=env)
    assert imported.exit_code == 0, imported.stderr
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/users/me", json=USER)

    result = run_cli(["users", "compliance", "-o", "csv"], env=env)

    assert result.exit_code == 0, result.stderr
    assert [r.method for r in httpx_mock.get_requests()] == ["GET"]
    header, row = result.stdout.splitlines()
    assert header.startswith("name,email,compliance.acceptedTerms")
    assert row.startswith("Ada Lovelace,ada@example.test,true,false,true,false,true")


def test_rejected_update_shows_field_errors_as_json_when_asked(httpx_mock: HTTPXMock) -> None:
    problem = {
        "title": "Validation failed",
        "status": 400,
        "errors": {"source": ["too long"]},
        "traceId": "t-9",
    }
    httpx_mock.add_response(
        method="PUT",
        url=URL,
        status_code=400,
        headers={"Content-Type": "application/problem+json"},
        json=problem,
    )
    result = run_cli(
        ["users", "compliance", "--accepted-sms", "--source", "x" * 300, "-o", "json"],
        env=token_env(),
    )
    assert result.exit_code == 6
    assert result.stdout == ""
    assert json.loads(result.stderr) == {**problem, "exitCode": 6}


def test_put_is_retried_on_a_server_error(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=URL, status_code=502)
    httpx_mock.add_response(method="PUT", url=URL, json=USER)
    result = run_cli(["users", "compliance", "--accepted-sms"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert "retrying" in result.stderr
    assert sent_json(httpx_mock) == [{"compliance": {"acceptedSms": True}}] * 2


def test_unauthenticated_is_exit_3(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="PUT", url=URL, status_code=401)
    result = run_cli(["users", "compliance", "--accepted-sms"], env=token_env())
    assert result.exit_code == 3


def test_no_credential_is_exit_3_before_sending(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["users", "compliance", "--accepted-sms"], env={"LEADCTL_BASE_URL": BASE_URL})
    assert result.exit_code == 3
    assert httpx_mock.get_requests() == []


def test_run_sends_the_options_given_and_prints_the_user(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.users import compliance

    httpx_mock.add_response(method="PUT", url=URL, json=USER)
    ctx = direct_context(output="json")
    try:
        compliance.run(compliance.Options(accepted_sms=False, source="cli"), ctx)
    finally:
        ctx.close()
    assert sent_json(httpx_mock) == [{"compliance": {"acceptedSms": False}, "source": "cli"}]
    assert json.loads(stdout_of(ctx)) == USER


def test_run_with_only_a_source_refuses_before_sending(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.users import compliance
    from leadctl.errors import UsageError

    ctx = direct_context(output="json")
    with pytest.raises(UsageError, match="nothing to update"):
        compliance.run(compliance.Options(source="cli"), ctx)
    assert httpx_mock.get_requests() == []

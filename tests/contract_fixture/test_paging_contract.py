"""Paging through the installed leadctl against the validating mock (cli.md "Paging").

Every next request repeats the first request's body exactly, pageSize included, with the
continuation token the service answered, byte for byte: the mock refuses a token it never
answered and a next page whose query differs (tests/support/contract_mock.py).
"""

from __future__ import annotations

import json

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner

pytestmark = pytest.mark.e2e

LEADS = "/leads/all/my"
# What a service's tokens hold: base64 (+/=), percent signs, spaces, a line break.
TOKENS = ["eyJwIjoyfQ+/=", " 100%25 done ", "line\nbreak\r\n"]


def lead(n: int) -> dict[str, object]:
    return {
        "id": f"lead-{n}",
        "processingStatus": "Accepted",
        "isArchived": False,
        "createdAt": "2026-11-20T15:04:05Z",
    }


def queue_pages(mock: ContractMock, pages: int) -> None:
    for number in range(pages):
        token = TOKENS[number] if number < pages - 1 else None
        mock.reply(
            "POST",
            LEADS,
            body={
                "items": [lead(2 * number), lead(2 * number + 1)],
                "pageSize": 2,
                "continuationToken": token,
            },
        )


def test_all_repeats_the_first_body_and_sends_tokens_byte_for_byte(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    queue_pages(contract_mock, 4)
    result = leadctl(["leads", "list", "--all", "--search", "ada", "-o", "ndjson"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [
        f"lead-{n}" for n in range(8)
    ]
    assert contract_mock.violations() == []
    sent = [r.json() for r in contract_mock.requests_to("POST", LEADS)]
    assert [body.get("continuationToken") for body in sent] == [None, *TOKENS]
    assert {body["pageSize"] for body in sent} == {200}


def test_limit_one_asks_for_one_item(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    contract_mock.reply("POST", LEADS, body={"items": [lead(0)], "continuationToken": "next"})
    result = leadctl(["leads", "list", "--limit", "1", "-o", "json"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    [request] = contract_mock.requests_to("POST", LEADS)
    assert request.json()["pageSize"] == 1
    assert contract_mock.violations() == []


def test_a_cursor_with_spaces_resumes_byte_for_byte(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    token = " 100%25 done "
    contract_mock.reply("POST", LEADS, body={"items": [lead(0)], "continuationToken": token})
    first = leadctl(["leads", "list", "--limit", "1", "-o", "csv"], env=leadctl_env)
    assert first.exit_code == 0, first.stderr
    contract_mock.reply("POST", LEADS, body={"items": [lead(1)]})

    resumed = leadctl(
        ["leads", "list", "--limit", "1", "--cursor", token, "-o", "ndjson"], env=leadctl_env
    )

    assert resumed.exit_code == 0, resumed.stderr
    assert contract_mock.violations() == []
    assert contract_mock.requests_to("POST", LEADS)[-1].json()["continuationToken"] == token


@pytest.mark.parametrize(("args", "asked"), [(["--all"], 100), (["--limit", "500"], 100)])
def test_all_asks_for_no_more_than_the_contract_allows(
    trait_mock: ContractMock, trait_env: CredentialEnv, args: list[str], asked: int, leadctl: Runner
) -> None:
    """The trait contract caps pageSize at 100 (paging_limits.py): 200 would be a 400."""
    trait_mock.reply("POST", LEADS, body={"items": []})

    result = leadctl(["leads", "list", *args, "-o", "json"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    [request] = trait_mock.requests_to("POST", LEADS)
    assert request.json()["pageSize"] == asked
    assert trait_mock.violations() == []

"""Issue 21.8: retry safety from what the operation does. ``GET /leads/intake`` creates a lead
from query parameters (its operationId and summary say so, traits/get_that_creates.py): after
a 503 it is not sent again (one request, exit 9 saying it may have acted), where a plain read
is retried. The help row runs the installed leadctl on one variant (``leadctl``) and
in-process on the other, as the other tests do."""

from __future__ import annotations

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import SOURCE_KEY, CredentialEnv, Runner

UNAVAILABLE = {"title": "Service Unavailable", "status": 503}


def test_a_get_that_creates_is_sent_once_after_a_503_and_is_exit_9(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    trait_mock.reply("GET", "/leads/intake", status=503, body=UNAVAILABLE)
    trait_mock.reply("GET", "/leads/intake", status=503, body=UNAVAILABLE)

    result = leadctl(
        ["leads", "create-from-query", "--first-name", "Ada", "--phone-number", "+15125550123"],
        env={**trait_env, "LEADCTL_TOKEN": SOURCE_KEY},
    )

    assert result.exit_code == 9, result.stderr
    assert "may or may not have taken effect" in result.stderr
    assert "retrying" not in result.stderr
    assert len(trait_mock.requests_to("GET", "/leads/intake")) == 1
    assert trait_mock.violations() == []


def test_its_help_says_why_it_is_not_retried(trait_env: CredentialEnv, leadctl: Runner) -> None:
    shown = leadctl(["leads", "create-from-query", "--help"], env=trait_env)
    assert shown.exit_code == 0, shown.stderr
    text = " ".join(shown.stdout.split())
    assert "Not retry-safe (a GET whose operationId or summary says it acts ('create'))" in text


def test_a_plain_read_is_retried_after_a_503(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    trait_mock.reply("GET", "/tags", status=503, body=UNAVAILABLE)

    result = leadctl(["tags", "list", "-o", "json", "--max-retries", "1"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    assert len(trait_mock.requests_to("GET", "/tags")) == 2

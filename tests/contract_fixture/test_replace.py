"""Issue 12 point 1, end to end with the installed leadctl against the validating mock:
full-replacement PUTs read the resource, merge the change, and send a whole valid body.

The installed leadctl meets each guarantee on one variant (``leadctl``); looking up a generated
command, a second body that only varies the resource and a test's second command run
in-process on both (``run_in_process``: the same command tree and socket)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

SOURCE = {
    "id": "s1",
    "name": "Website form",
    "description": "The form on the landing page",
    "enabled": True,
    "apiKeyPreview": "src_…9f2a",
    "organization": {"id": "o1", "name": "Acme"},
    "allowedStates": ["TX", "CA"],
    "allowedProducts": ["auto"],
    "requiresConsentCertificate": True,
    "complianceApproved": True,
    "defaultTagIds": ["t1"],
    "defaultTagNames": ["web"],
    "defaultTags": [{"id": "t1", "name": "web", "normalizedName": "web"}],
    "createdAt": "2026-01-02T03:04:05Z",
    "modifiedAt": None,
}
STATUS_CHANGE = {
    "id": "c1",
    "leadId": "l1",
    "leadName": "Ada Lovelace",
    "type": "Call",
    "outcome": "NoAnswer",
    "category": "Open",
    "notes": None,
    "reason": "first try",
    "callbackAt": "2026-11-21T15:00:00Z",
    "changeSource": "User",
    "changedAt": "2026-11-20T10:00:00Z",
    "createdAt": "2026-11-20T10:00:00Z",
}


def serve(mock: ContractMock, template: str, path: str, body: dict[str, Any]) -> str:
    etag = mock.etag(path)
    mock.reply("GET", template, body=body, headers={"ETag": etag})
    return etag


def sent(mock: ContractMock) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in mock.requests]


def generated_command(env: CredentialEnv, method: str, path: str) -> list[str]:
    shown = run_in_process(["contract", "show", "--operations", "-o", "json"], env=env)
    assert shown.exit_code == 0, shown.stderr
    row = next(r for r in json.loads(shown.stdout) if (r["method"], r["path"]) == (method, path))
    return str(row["command"]).split()


def test_sources_update_reads_then_puts_the_whole_source(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    etag = serve(contract_mock, "/sources/{id}", "/sources/s1", SOURCE)

    result = leadctl(["sources", "update", "s1", "--name", "Web leads"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    assert sent(contract_mock) == [("GET", "/sources/s1"), ("PUT", "/sources/s1")]
    put = contract_mock.requests[1]
    assert put.json() == {
        "name": "Web leads",
        "description": "The form on the landing page",
        "allowedStates": ["TX", "CA"],
        "allowedProducts": ["auto"],
        "requiresConsentCertificate": True,
        "defaultTagIds": ["t1"],
        "defaultTagNames": ["web"],
    }
    assert put.headers["if-match"] == etag


def test_status_changes_update_reads_then_puts_the_whole_entry(
    contract_mock: ContractMock, leadctl_env: CredentialEnv
) -> None:
    serve(contract_mock, "/lead-status-changes/{id}", "/lead-status-changes/c1", STATUS_CHANGE)

    result = run_in_process(["status-changes", "update", "c1", "--notes", "x"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    put = contract_mock.requests_to("PUT", "/lead-status-changes/{id}")[0].json()
    assert put == {
        "type": "Call",
        "outcome": "NoAnswer",
        "category": "Open",
        "notes": "x",
        "reason": "first try",
        "callbackAt": "2026-11-21T15:00:00Z",
    }


def test_given_every_required_field_there_is_no_read(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    args = ["status-changes", "update", "c1", "--type", "Visit", "--outcome", "Met"]

    result = leadctl(args, env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert sent(contract_mock) == [("PUT", "/lead-status-changes/c1")]
    assert "if-match" not in contract_mock.requests[0].headers


def test_dry_run_reads_and_prints_the_merged_put_without_sending_it(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    serve(contract_mock, "/sources/{id}", "/sources/s1", SOURCE)

    result = leadctl(
        ["--dry-run", "sources", "update", "s1", "--name", "Web leads"], env=leadctl_env
    )

    assert result.exit_code == 0, result.stderr
    assert sent(contract_mock) == [("GET", "/sources/s1")]
    assert "-X PUT" in result.stdout
    assert '"allowedStates":["TX","CA"]' in result.stdout.replace(" ", "")
    assert "If-Match" in result.stdout


def test_a_change_made_meanwhile_is_exit_6_and_nothing_replaced(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    serve(contract_mock, "/sources/{id}", "/sources/s1", SOURCE)
    contract_mock.change("/sources/s1")  # someone else saved after that read

    result = leadctl(["sources", "update", "s1", "--name", "Web leads"], env=leadctl_env)

    assert result.exit_code == 6
    assert "changed" in result.stderr
    assert [r.status for r in contract_mock.requests] == [200, 412]


def test_a_generated_put_reads_merges_and_sends_without_if_match_when_no_etag(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    command = generated_command(leadctl_env, "PUT", "/automations/{id}")
    contract_mock.reply(
        "GET",
        "/automations/{id}",
        body={
            "id": "a1",
            "name": "Welcome",
            "isActive": True,
            "triggerType": "LeadCreated",
            "steps": [{"id": "st1", "order": 1, "actionType": "Sms", "delayMinutes": 0}],
            "createdAt": "2026-01-01T00:00:00Z",
        },
    )

    result = leadctl([*command, "a1", "--field", "isActive=false"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    put = contract_mock.requests_to("PUT", "/automations/{id}")[0]
    assert put.json() == {
        "name": "Welcome",
        "triggerType": "LeadCreated",
        "isActive": False,
        "steps": [{"id": "st1", "order": 1, "actionType": "Sms", "delayMinutes": 0}],
    }
    assert "if-match" not in put.headers


def test_a_generated_put_with_an_etag_sends_if_match(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    command = generated_command(leadctl_env, "PUT", "/tags/{id}")
    etag = serve(
        contract_mock, "/tags/{id}", "/tags/t1", {"id": "t1", "name": "vip", "color": "#f00"}
    )

    result = leadctl([*command, "t1", "--field", "name=VIP"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    put = contract_mock.requests_to("PUT", "/tags/{id}")[0]
    assert (put.json(), put.headers["if-match"]) == ({"name": "VIP", "color": "#f00"}, etag)


def test_without_a_get_on_the_path_missing_fields_are_exit_2_before_sending(
    contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    command = generated_command(leadctl_env, "PUT", "/organizations/current/settings")
    assign = generated_command(leadctl_env, "PUT", "/leads/{id}/assignment")

    with_get = run_in_process(["--dry-run", *command, "--field", "name=Acme"], env=leadctl_env)
    without_get = leadctl([*assign, "l1", "--data", "{}"], env=leadctl_env)

    assert with_get.exit_code == 0, with_get.stderr
    assert without_get.exit_code == 2
    assert "userId" in without_get.stderr
    assert "GET" in without_get.stderr
    assert sent(contract_mock) == [("GET", "/organizations/current/settings")]

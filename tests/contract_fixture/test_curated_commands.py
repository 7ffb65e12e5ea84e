"""The curated commands against the fixture contract's validating mock, with the installed
leadctl: each reaches its operation (bound by METHOD + path, whatever the operationId) with a
request the contract accepts.

The rows vary only the data: one (``ENTRY_POINT_ROW``) runs the installed program on the 3.1
contract, the others run in-process (the same command tree, mock and socket)."""

from __future__ import annotations

import json

import pytest

from tests.contract_fixture.bodies import INTAKE
from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.in_process import run_in_process

CURATED = {
    "users compliance": (
        ["users", "compliance", "--accepted-terms", "--source", "cli"],
        ("PUT", "/users/compliance"),
    ),
    "sources update": (
        [
            "sources",
            "update",
            "s1",
            "--name",
            "Web",
            "--allowed-state",
            "TX",
            "--allowed-product",
            "auto",
            "--default-tag-id",
            "t1",
            "--default-tag-name",
            "web",
        ],
        ("PUT", "/sources/{id}"),
    ),
    "sources rotate": (
        ["sources", "rotate", "s1", "--yes"],
        ("POST", "/sources/{id}/credentials/rotate"),
    ),
    "status-changes update": (
        ["status-changes", "update", "c1", "--type", "Call", "--outcome", "Reached"],
        ("PUT", "/lead-status-changes/{id}"),
    ),
    "status-changes delete": (
        ["status-changes", "delete", "c1", "--yes"],
        ("DELETE", "/lead-status-changes/{id}"),
    ),
    "lead-statuses list": (["lead-statuses", "list"], ("GET", "/lead-statuses")),
    "lead-statuses get": (["lead-statuses", "get", "won"], ("GET", "/lead-statuses")),
    "numbers status": (
        ["numbers", "status", "+15125550123", "--window-days", "7"],
        ("GET", "/phone-numbers/{phoneNumber}/status"),
    ),
    "automations runs": (["automations", "runs", "a1"], ("GET", "/automations/{id}/runs")),
    "notifications announcements": (
        ["notifications", "announcements"],
        ("POST", "/notifications/announcements"),
    ),
    "a2a call": (["a2a", "call", "agent.ping", "--id", "1"], ("POST", "/a2a")),
    "leads create": (["leads", "create", "--data", json.dumps(INTAKE)], ("POST", "/leads")),
    "leads list": (["leads", "list"], ("POST", "/leads/all/my")),
    # Descending in the contract's own words (its SortDirection enum), not the assumed "desc".
    "leads list sorted": (["leads", "list", "--order-by", "-createdAt"], ("POST", "/leads/all/my")),
}
ENTRY_POINT_ROW = "leads create"


@pytest.mark.e2e
@pytest.mark.parametrize("name", list(CURATED))
def test_curated_command_sends_a_valid_request(
    name: str, contract_mock: ContractMock, leadctl_env: CredentialEnv, leadctl: Runner
) -> None:
    args, (method, template) = CURATED[name]
    if name == "lead-statuses get":
        # A status by that name, whatever the contract's example would have been.
        _status, example = contract_mock.example_response("GET", "/lead-statuses")
        contract_mock.reply("GET", "/lead-statuses", body=[{**example[0], "name": "Won"}])
    if name == "a2a call":
        contract_mock.reply(
            "POST", "/a2a", body={"jsonrpc": "2.0", "result": {"pong": True}, "id": 1}
        )

    run = leadctl if name == ENTRY_POINT_ROW else run_in_process
    result = run([*args, "-o", "json"], env=leadctl_env)

    assert result.exit_code == 0, result.stderr
    assert contract_mock.violations() == []
    assert [(r.method, r.template) for r in contract_mock.requests] == [(method, template)]

"""Bearer auth: user JWTs with roles, organization keys, source keys only for lead intake."""

from __future__ import annotations

from typing import Any

import httpx
import jwt
import pytest

from leadctl_sandbox.contract import iter_operations
from tests.support.bundled_contract import load_contract
from tests.support.sandbox_server import SandboxProcess

NEW_LEAD = {"firstName": "Ada", "phone": "+15125550177", "state": "TX", "product": "solar"}


def _request(
    sandbox: SandboxProcess, method: str, path: str, credential: str | None, body: Any = None
) -> httpx.Response:
    headers = {} if credential is None else {"Authorization": f"Bearer {credential}"}
    return httpx.request(method, sandbox.url(path), headers=headers, json=body, timeout=10)


def _call(
    sandbox: SandboxProcess, info: dict[str, Any], operation_id: str, credential: str
) -> httpx.Response:
    """A well-formed request for each operation, so only the credential decides the outcome."""
    source_id = info["sources"][2]["id"]
    requests: dict[str, tuple[str, str, Any]] = {
        "updateUserCompliance": ("PUT", "/users/compliance", {"source": "auth test"}),
        "updateSource": ("PUT", f"/sources/{source_id}", {"description": "auth test"}),
        "rotateSourceCredentials": ("POST", "/sources/does-not-exist/credentials/rotate", None),
        "updateLeadStatusChange": ("PUT", "/lead-status-changes/does-not-exist", {"notes": "x"}),
        "deleteLeadStatusChange": ("DELETE", "/lead-status-changes/does-not-exist", None),
        "getPhoneNumberStatus": ("GET", "/phone-numbers/%2B15125550100/status", None),
        "listAutomationRuns": ("GET", f"/automations/{info['automations'][0]['id']}/runs", None),
        "listLeadStatuses": ("GET", "/lead-statuses", None),
        "a2a": ("POST", "/a2a", {"jsonrpc": "2.0", "method": "agent.ping", "id": 1}),
        "listAnnouncements": ("POST", "/notifications/announcements", {"pageSize": 5}),
        "createLead": ("POST", "/leads", NEW_LEAD),
        "listMyLeads": ("POST", "/leads/all/my", {"pageSize": 5}),
    }  # fmt: skip
    method, path, body = requests[operation_id]
    return _request(sandbox, method, path, credential, body)


ALL_OPERATIONS = [op.operation_id for op in iter_operations(load_contract())]
WRITES = {
    "updateSource",
    "rotateSourceCredentials",
    "updateLeadStatusChange",
    "deleteLeadStatusChange",
    "createLead",
}


def test_missing_credential_is_401_problem_with_challenge(sandbox: SandboxProcess) -> None:
    response = _request(sandbox, "GET", "/lead-statuses", None)
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert response.json()["traceId"]


@pytest.mark.parametrize(
    "authorization",
    [
        "Bearer sk_sandbox_0000000000000000000000000000000",
        "Bearer src_not-a-real-source-key",
        "Bearer not.a.jwt",
        "Basic dXNlcjpwYXNz",
        "Bearer",
    ],
)
def test_invalid_credentials_are_401(sandbox: SandboxProcess, authorization: str) -> None:
    response = httpx.get(sandbox.url("/lead-statuses"), headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"


def test_jwt_signed_with_another_key_is_401(sandbox: SandboxProcess, info: dict[str, Any]) -> None:
    claims = jwt.decode(sandbox.credentials.user, options={"verify_signature": False})
    forged = jwt.encode(claims, "not the sandbox secret" * 2, algorithm="HS256")
    assert _request(sandbox, "GET", "/lead-statuses", forged).status_code == 401


def test_expired_jwt_is_401(sandbox: SandboxProcess) -> None:
    expired = sandbox.mint_token(expiresIn=-60)
    assert _request(sandbox, "GET", "/lead-statuses", expired).status_code == 401


def test_user_jwt_carries_roles(sandbox: SandboxProcess) -> None:
    claims = jwt.decode(sandbox.credentials.user, options={"verify_signature": False})
    assert "Owner" in claims["roles"]
    read_only = jwt.decode(sandbox.credentials.read_only_user, options={"verify_signature": False})
    assert read_only["roles"] == ["ReadOnly"]


@pytest.mark.parametrize("operation_id", ALL_OPERATIONS)
def test_organization_key_and_user_token_may_call_every_operation(
    sandbox: SandboxProcess, info: dict[str, Any], operation_id: str
) -> None:
    for credential in (sandbox.credentials.org, sandbox.credentials.user):
        response = _call(sandbox, info, operation_id, credential)
        assert response.status_code not in (401, 403), (operation_id, response.text)


@pytest.mark.parametrize("operation_id", sorted(set(ALL_OPERATIONS) - WRITES))
def test_read_only_user_may_read(
    sandbox: SandboxProcess, info: dict[str, Any], operation_id: str
) -> None:
    response = _call(sandbox, info, operation_id, sandbox.credentials.read_only_user)
    assert response.status_code not in (401, 403), response.text


@pytest.mark.parametrize("operation_id", sorted(WRITES))
def test_read_only_user_gets_403_on_writes(
    sandbox: SandboxProcess, info: dict[str, Any], operation_id: str
) -> None:
    response = _call(sandbox, info, operation_id, sandbox.credentials.read_only_user)
    assert response.status_code == 403
    assert response.headers["content-type"] == "application/problem+json"


def test_roles_come_from_the_signed_token(sandbox: SandboxProcess, info: dict[str, Any]) -> None:
    demoted = sandbox.mint_token(roles=["ReadOnly"])
    assert _call(sandbox, info, "updateSource", demoted).status_code == 403
    member = sandbox.mint_token(roles=["Member"])
    assert _call(sandbox, info, "updateSource", member).status_code == 200


@pytest.mark.parametrize("operation_id", sorted(set(ALL_OPERATIONS) - {"createLead"}))
def test_source_key_is_refused_outside_lead_intake(
    sandbox: SandboxProcess, info: dict[str, Any], operation_id: str
) -> None:
    response = _call(sandbox, info, operation_id, sandbox.credentials.source)
    assert response.status_code == 403
    assert response.headers["content-type"] == "application/problem+json"


def test_source_key_is_accepted_on_lead_intake(
    sandbox: SandboxProcess, info: dict[str, Any]
) -> None:
    response = _call(sandbox, info, "createLead", sandbox.credentials.source)
    assert response.status_code == 202


def test_source_keys_look_like_neither_org_keys_nor_jwts(sandbox: SandboxProcess) -> None:
    assert sandbox.credentials.org.startswith("sk_")
    assert sandbox.credentials.sources
    for key in sandbox.credentials.sources.values():
        assert key.startswith("src_")
        assert not key.startswith("sk_")
        assert "." not in key


def test_other_organizations_resources_are_invisible(
    sandbox: SandboxProcess, info: dict[str, Any]
) -> None:
    outsider = sandbox.mint_token(otherOrganization=True)
    source_id = info["sources"][0]["id"]
    response = _request(sandbox, "PUT", f"/sources/{source_id}", outsider, {"description": "x"})
    assert response.status_code == 404
    number = info["phoneNumbers"][0].replace("+", "%2B")
    response = _request(sandbox, "GET", f"/phone-numbers/{number}/status", outsider)
    assert response.status_code == 403
    mine = _request(sandbox, "POST", "/leads/all/my", outsider, {"pageSize": 200}).json()
    assert {lead["organizationId"] for lead in mine["items"]} == {info["otherOrganization"]["id"]}

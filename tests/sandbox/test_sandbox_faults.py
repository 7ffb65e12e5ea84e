"""Fault injection (--faults): header and control endpoints; 500, 429, hang, drop, drop-after."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess, sandbox_server


def _lead() -> dict[str, Any]:
    return {"firstName": "Fault", "email": f"{uuid.uuid4().hex}@example.com"}


def _count_by_email(api: httpx.Client, email: str) -> int:
    body = {"search": email, "searchFields": ["email"], "includeCount": True}
    count: int = api.post("/leads/all/my", json=body).json()["totalCount"]
    return count


def test_header_fault_500_affects_only_that_request(api: httpx.Client) -> None:
    failed = api.get("/lead-statuses", headers={"X-Leadctl-Fault": "500"})
    assert failed.status_code == 500
    assert failed.headers["content-type"] == "application/problem+json"
    assert api.get("/lead-statuses").status_code == 200


def test_header_fault_429_with_retry_after(api: httpx.Client) -> None:
    response = api.get("/lead-statuses", headers={"X-Leadctl-Fault": "429;retry-after=3"})
    assert response.status_code == 429
    assert response.headers["retry-after"] == "3"


def test_header_fault_hang_makes_the_client_time_out(api: httpx.Client) -> None:
    with pytest.raises(httpx.ReadTimeout):
        api.get("/lead-statuses", headers={"X-Leadctl-Fault": "hang=2"}, timeout=0.5)


def test_the_log_notes_when_a_client_gave_up_on_a_hung_request(
    sandbox: SandboxProcess, api: httpx.Client
) -> None:
    probes = {name: uuid.uuid4().hex for name in ("abandoned", "waited")}
    with pytest.raises(httpx.ReadTimeout):
        api.get(
            "/lead-statuses",
            params={"probe": probes["abandoned"]},
            headers={"X-Leadctl-Fault": "hang=1"},
            timeout=0.2,
        )
    # Sent after the first one's connection was closed and answered 1.2 s later: by then
    # the sandbox has long seen that close.
    waited = api.get(
        "/lead-statuses",
        params={"probe": probes["waited"]},
        headers={"X-Leadctl-Fault": "hang=1.2"},
        timeout=10,
    )
    assert waited.status_code == 200
    noted = {
        name: entry["abandonedAfterMs"]
        for entry in sandbox.requests()
        for name, probe in probes.items()
        if entry["query"] == f"probe={probe}"
    }
    assert noted["waited"] is None
    assert noted["abandoned"] is not None
    assert 0 < noted["abandoned"] < 1000


def test_drop_closes_the_connection_and_does_nothing(api: httpx.Client) -> None:
    body = _lead()
    with pytest.raises(httpx.RemoteProtocolError):
        api.post("/leads", json=body, headers={"X-Leadctl-Fault": "drop"})
    assert _count_by_email(api, body["email"]) == 0


def test_drop_after_performs_the_operation_then_drops(
    sandbox: SandboxProcess, api: httpx.Client
) -> None:
    body = _lead()
    sandbox.add_fault("/leads", "drop-after", method="POST")
    with pytest.raises(httpx.RemoteProtocolError):
        api.post("/leads", json=body)
    assert _count_by_email(api, body["email"]) == 1  # it happened; the answer was lost
    assert api.post("/leads", json=_lead()).status_code == 202  # count was 1


def test_rotation_whose_answer_is_lost_still_rotated(fresh_sandbox: SandboxProcess) -> None:
    source_id, old_key = next(iter(fresh_sandbox.credentials.sources.items()))
    fresh_sandbox.add_fault("/sources/*/credentials/rotate", "drop-after", method="POST")
    with fresh_sandbox.client() as api, pytest.raises(httpx.RemoteProtocolError):
        api.post(f"/sources/{source_id}/credentials/rotate")
    intake = httpx.post(
        fresh_sandbox.url("/leads"), json=_lead(), headers=fresh_sandbox.headers(old_key)
    )
    assert intake.status_code == 401


def test_delete_retried_after_a_lost_answer_is_404(
    sandbox: SandboxProcess, api: httpx.Client
) -> None:
    lead = api.post(
        "/leads/all/my",
        json={"pageSize": 1, "orderBy": [{"field": "createdAt", "direction": "asc"}]},
    ).json()["items"][0]
    change_id = lead["currentStatusChangeId"]
    sandbox.add_fault(f"/lead-status-changes/{change_id}", "drop-after", method="DELETE")
    with pytest.raises(httpx.RemoteProtocolError):
        api.delete(f"/lead-status-changes/{change_id}")
    assert api.delete(f"/lead-status-changes/{change_id}").status_code == 404


def test_rules_match_method_glob_and_count(sandbox: SandboxProcess, api: httpx.Client) -> None:
    rule = sandbox.add_fault("/automations/*", "503", method="GET", count=2)
    assert rule["count"] == 2
    path = f"/automations/{sandbox.info()['automations'][0]['id']}/runs"
    assert api.get("/lead-statuses").status_code == 200  # no match
    assert [api.get(path).status_code for _ in range(3)] == [503, 503, 200]
    sandbox.add_fault("/lead-statuses", "429;retry-after=2", count=None)
    assert [api.get("/lead-statuses").status_code for _ in range(3)] == [429, 429, 429]
    sandbox.clear_faults()
    assert api.get("/lead-statuses").status_code == 200


def test_bad_fault_specs_are_rejected(sandbox: SandboxProcess, api: httpx.Client) -> None:
    assert api.get("/lead-statuses", headers={"X-Leadctl-Fault": "explode"}).status_code == 400
    response = httpx.post(sandbox.url("/_sandbox/faults"), json={"path": "/leads", "action": "404"})
    assert response.status_code == 400


def test_request_log_tells_what_was_sent_without_credentials(
    sandbox: SandboxProcess, api: httpx.Client, info: dict[str, Any]
) -> None:
    sandbox.clear_requests()
    source_id = info["sources"][1]["id"]
    api.put(
        f"/sources/{source_id}",
        json={"name": "Solar Leads Marketplace", "apiKey": "src_" + "9" * 40},
    )
    api.get("/lead-statuses", headers={"X-Leadctl-Fault": "500"})
    with sandbox.client(sandbox.credentials.user) as user_api:
        user_api.post("/leads/all/my", json={"pageSize": 2})
    log = sandbox.requests()
    assert [(e["method"], e["path"], e["status"]) for e in log] == [
        ("PUT", f"/sources/{source_id}", 200),
        ("GET", "/lead-statuses", 500),
        ("POST", "/leads/all/my", 200),
    ]
    assert log[0]["operationId"] == "updateSource" and log[0]["credentialKind"] == "org"
    assert log[0]["body"]["apiKey"] == "[redacted]"
    assert log[1]["fault"] == "500"
    assert log[2]["credentialKind"] == "user"
    text = json.dumps(log)
    secrets = [sandbox.credentials.org, sandbox.credentials.user, "9" * 40]
    assert not [s for s in secrets if s in text], "the request log holds a credential"


def test_without_faults_there_is_no_fault_injection() -> None:
    with sandbox_server(faults=False) as sandbox, sandbox.client() as api:
        assert api.get("/lead-statuses", headers={"X-Leadctl-Fault": "500"}).status_code == 200
        assert httpx.get(sandbox.url("/_sandbox/requests")).status_code == 404
        assert httpx.post(sandbox.url("/_sandbox/faults"), json={}).status_code == 404

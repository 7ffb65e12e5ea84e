"""Automation runs, lead statuses, compliance and A2A JSON-RPC against the seeded data."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.bundled_contract import load_contract
from tests.support.sandbox_server import SandboxProcess


def test_automation_runs_newest_first_with_actions_and_events(
    api: httpx.Client, info: dict[str, Any]
) -> None:
    for automation in info["automations"]:
        body = api.get(f"/automations/{automation['id']}/runs").json()
        assert body["automationId"] == automation["id"]
        runs = body["runs"]
        assert runs
        assert [r["startedAt"] for r in runs] == sorted(
            (r["startedAt"] for r in runs), reverse=True
        )
        for run in runs:
            assert run["automation"] == {"id": automation["id"], "name": automation["name"]}
            assert run["organizationId"] == info["organization"]["id"]
            assert run["events"] and run["events"][0]["eventType"] == "RunStarted"
            assert [a["stepOrder"] for a in run["actions"]] == list(
                range(1, len(run["actions"]) + 1)
            )
            if run["status"] == "Failed":
                assert run["failedAt"] and run["lastErrorCode"]
    statuses = {
        run["status"]
        for a in info["automations"]
        for run in api.get(f"/automations/{a['id']}/runs").json()["runs"]
    }
    assert len(statuses) >= 3


def test_unknown_automation_has_no_runs(api: httpx.Client) -> None:
    response = api.get("/automations/unknown/runs")
    assert response.status_code == 200
    assert response.json() == {"automationId": "unknown", "runs": []}


def test_lead_statuses_are_the_active_ones_in_display_order(
    api: httpx.Client, info: dict[str, Any]
) -> None:
    statuses = api.get("/lead-statuses").json()
    assert [s["sortOrder"] for s in statuses] == sorted(s["sortOrder"] for s in statuses)
    assert not any(s["isArchived"] for s in statuses)
    assert "Legacy follow-up" not in {s["name"] for s in statuses}  # archived in the seed
    assert {s["organizationId"] for s in statuses} == {info["organization"]["id"]}
    assert {s["category"] for s in statuses} == {
        "Open",
        "Qualified",
        "Converted",
        "Lost",
        "Invalid",
        "Duplicate",
    }


def test_compliance_update_is_partial_and_for_the_caller(
    sandbox: SandboxProcess, info: dict[str, Any]
) -> None:
    with sandbox.client(sandbox.credentials.read_only_user) as api:
        before = api.put("/users/compliance", json={"compliance": None}).json()
        after = api.put(
            "/users/compliance", json={"compliance": {"acceptedBaa": True}, "source": "cli"}
        )
    assert after.status_code == 200
    user = after.json()
    assert user["id"] == info["users"]["readOnly"]
    assert user["compliance"]["acceptedBaa"] is True
    unchanged = {k: v for k, v in before["compliance"].items() if k != "acceptedBaa"}
    assert {k: user["compliance"][k] for k in unchanged} == unchanged
    assert user["modifiedAt"] is not None
    with sandbox.client() as api:
        owner = api.put("/users/compliance", json={"source": None}).json()
    assert owner["id"] == info["users"]["owner"]  # an organization key acts as its owner
    assert owner["currentOrganization"] == info["organization"]


def _rpc(api: httpx.Client, payload: Any) -> dict[str, Any]:
    response = api.post("/a2a", json=payload)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    body: dict[str, Any] = response.json()
    return body


def test_a2a_methods(api: httpx.Client, info: dict[str, Any]) -> None:
    ping = _rpc(api, {"jsonrpc": "2.0", "method": "agent.ping", "id": "p1"})
    assert ping["id"] == "p1"
    assert ping["result"]["pong"] is True
    assert ping["result"]["organization"] == info["organization"]
    assert ping["result"]["credentialKind"] == "org"
    search = _rpc(
        api, {"jsonrpc": "2.0", "method": "leads.search", "params": {"pageSize": 2}, "id": 2}
    )
    leads = search["result"]["items"]
    assert len(leads) == 2 and search["result"]["continuationToken"]
    got = _rpc(
        api, {"jsonrpc": "2.0", "method": "leads.get", "params": {"id": leads[0]["id"]}, "id": 3}
    )
    assert got["result"]["id"] == leads[0]["id"]
    assert isinstance(got["result"]["statusChanges"], list)


def test_a2a_errors_are_json_rpc_errors_with_http_200(api: httpx.Client) -> None:
    cases = [
        (b"{", -32700),
        (b'{"jsonrpc": "1.0", "method": "agent.ping", "id": 1}', -32600),
        (b'[{"jsonrpc": "2.0", "method": "agent.ping", "id": 1}]', -32600),
        (b'{"jsonrpc": "2.0", "method": "leads.delete", "id": 1}', -32601),
        (b'{"jsonrpc": "2.0", "method": "leads.get", "params": {}, "id": 1}', -32602),
        (
            b'{"jsonrpc": "2.0", "method": "leads.search", "params": {"pageSize": 0}, "id": 1}',
            -32602,
        ),
        (b'{"jsonrpc": "2.0", "method": "leads.get", "params": {"id": "nope"}, "id": 1}', -32004),
    ]
    for raw, code in cases:
        response = api.post("/a2a", content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 200
        body = response.json()
        assert body["jsonrpc"] == "2.0"
        assert body["error"]["code"] == code, raw
        assert "result" not in body


def test_responses_carry_every_documented_field(api: httpx.Client, info: dict[str, Any]) -> None:
    """Fidelity beyond the schema's required lists: nothing documented is left out."""
    schemas = load_contract()["components"]["schemas"]

    def props(name: str) -> set[str]:
        return set(schemas[name]["properties"])

    source = api.put(f"/sources/{info['sources'][0]['id']}", json={}).json()
    assert set(source) == props("Source")
    oldest = {"pageSize": 1, "orderBy": [{"field": "createdAt", "direction": "asc"}]}
    lead = api.post("/leads/all/my", json=oldest).json()["items"][0]
    assert set(lead) == props("Lead")
    user = api.put("/users/compliance", json={}).json()
    assert set(user) == props("User")
    status = api.get("/phone-numbers/%2B15125550100/status").json()
    assert set(status) == props("PhoneNumberStatus")
    assert set(status["outboundCapacity"]) == props("OutboundCapacity")
    assert set(status["trafficMetrics"]) == props("TrafficMetrics")
    run = api.get(f"/automations/{info['automations'][0]['id']}/runs").json()["runs"][0]
    assert set(run) == props("AutomationRun")
    assert set(run["actions"][0]) == props("AutomationRunAction")
    assert set(run["events"][0]) == props("AutomationRunEvent")
    item = api.post("/notifications/announcements", json={"pageSize": 1}).json()["items"][0]
    assert set(item) == props("Announcement")
    entry = api.post(
        "/a2a",
        json={"jsonrpc": "2.0", "method": "leads.get", "params": {"id": lead["id"]}, "id": 1},
    ).json()["result"]["statusChanges"]
    assert set(entry[0]) == props("LeadStatusChange")
    assert set(api.get("/lead-statuses").json()[0]) == props("LeadStatus")

"""PUT/DELETE /lead-status-changes/{id}: the current entry drives the lead's status; a deleted
entry is gone from every read."""

from __future__ import annotations

from typing import Any

import httpx


def _rpc(api: httpx.Client, method: str, params: dict[str, Any]) -> Any:
    body = api.post("/a2a", json={"jsonrpc": "2.0", "method": method, "params": params, "id": 1})
    assert body.status_code == 200
    payload = body.json()
    assert "error" not in payload, payload
    return payload["result"]


def _lead_with_history(api: httpx.Client, minimum: int) -> dict[str, Any]:
    """A seeded lead with at least ``minimum`` status changes, with its history."""
    token = None
    while True:
        page = api.post(
            "/leads/all/my",
            json={
                "pageSize": 50,
                "continuationToken": token,
                "filters": [{"field": "processingStatus", "value": "Accepted"}],
                "orderBy": [{"field": "createdAt", "direction": "asc"}],
            },
        ).json()
        for lead in page["items"]:
            full = _rpc(api, "leads.get", {"id": lead["id"]})
            if len(full["statusChanges"]) >= minimum:
                return dict(full)
        token = page["continuationToken"]
        assert token, "no seeded lead has that much history"


def _lead(api: httpx.Client, lead_id: str) -> dict[str, Any]:
    return dict(_rpc(api, "leads.get", {"id": lead_id}))


def test_updating_the_current_entry_updates_the_lead_status(api: httpx.Client) -> None:
    lead = _lead_with_history(api, 2)
    current = lead["statusChanges"][-1]
    assert lead["currentStatusChangeId"] == current["id"]
    response = api.put(
        f"/lead-status-changes/{current['id']}",
        json={"outcome": "Won", "category": "Converted", "notes": "Signed today."},
    )
    assert response.status_code == 200
    updated = response.json()
    assert (updated["outcome"], updated["category"], updated["notes"]) == (
        "Won",
        "Converted",
        "Signed today.",
    )
    assert updated["updatedAt"] > current["updatedAt"]
    assert _lead(api, lead["id"])["status"]["name"] == "Won"
    # No status named like the outcome: the first active status of the category.
    api.put(
        f"/lead-status-changes/{current['id']}", json={"outcome": "No answer", "category": "Lost"}
    )
    assert _lead(api, lead["id"])["status"]["name"] == "Lost"


def test_updating_an_older_entry_leaves_the_lead_status(api: httpx.Client) -> None:
    lead = _lead_with_history(api, 2)
    older = lead["statusChanges"][0]
    response = api.put(
        f"/lead-status-changes/{older['id']}",
        json={
            "outcome": "Duplicate",
            "category": "Duplicate",
            "callbackAt": "2030-01-02T03:04:05+01:00",
        },
    )
    assert response.status_code == 200
    assert response.json()["callbackAt"] == "2030-01-02T02:04:05.000Z"
    assert _lead(api, lead["id"])["status"] == lead["status"]


def test_deleted_entry_disappears_from_every_read(api: httpx.Client) -> None:
    lead = _lead_with_history(api, 3)
    history = lead["statusChanges"]
    middle = history[-2]
    current = history[-1]
    assert api.delete(f"/lead-status-changes/{middle['id']}").status_code == 204
    after = _lead(api, lead["id"])
    ids = [entry["id"] for entry in after["statusChanges"]]
    assert middle["id"] not in ids
    assert middle["id"] not in str(after)  # not even as a neighbour's link
    listed = _rpc(api, "leadStatusChanges.list", {"leadId": lead["id"]})
    assert middle["id"] not in [entry["id"] for entry in listed]
    assert after["statusChanges"][-1]["oldLeadStatusChangeId"] == history[-3]["id"]
    assert after["status"] == lead["status"]  # it was not the current one
    assert api.put(f"/lead-status-changes/{middle['id']}", json={"notes": "x"}).status_code == 404
    assert api.delete(f"/lead-status-changes/{middle['id']}").status_code == 404
    # Deleting the current entry makes the previous remaining one current.
    assert api.delete(f"/lead-status-changes/{current['id']}").status_code == 204
    after = _lead(api, lead["id"])
    assert after["currentStatusChangeId"] == history[-3]["id"]
    assert after["status"]["name"] == history[-3]["outcome"]


def test_invalid_update_is_400_by_field(api: httpx.Client) -> None:
    lead = _lead_with_history(api, 1)
    entry = lead["statusChanges"][0]
    response = api.put(
        f"/lead-status-changes/{entry['id']}",
        json={"category": "Maybe", "callbackAt": "tomorrow", "type": ""},
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"category", "callbackAt", "type"}


def test_unknown_status_change_is_404(api: httpx.Client) -> None:
    assert api.put("/lead-status-changes/nope", json={"notes": "x"}).status_code == 404
    assert api.delete("/lead-status-changes/nope").status_code == 404

"""Lists and reads of every resource a command takes an id of, published as an ASP.NET
service publishes them: ``Tag_Action[ForCurrentUser|ForCurrentOrganization]`` operationIds,
collection reads as ``POST .../all`` with RequestDataOptions, ``GET .../{id}`` for one."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import httpx
import pytest

from leadctl_sandbox.contract import iter_operations
from leadctl_sandbox.ops import handlers
from leadctl_sandbox.published import published_contract
from tests.support.bundled_contract import load_contract
from tests.support.sandbox_server import SandboxProcess

ASPNET_ID = re.compile(r"^[A-Z][A-Za-z]*_[A-Z][A-Za-z]*$")

READS = {
    ("GET", "/leads/{id}"): "Leads_GetForCurrentUser",
    ("POST", "/sources/all"): "Sources_GetAllForCurrentUser",
    ("GET", "/sources/{id}"): "Sources_GetForCurrentUser",
    ("POST", "/automations/all"): "Automations_GetAllForCurrentOrganization",
    ("GET", "/automations/{id}"): "Automations_GetForCurrentOrganization",
    ("POST", "/phone-numbers/all"): "PhoneNumbers_GetAllForCurrentOrganization",
    ("GET", "/phone-numbers/{id}"): "PhoneNumbers_GetForCurrentOrganization",
    ("POST", "/lead-status-changes/all"): "LeadStatusChanges_GetAllForCurrentUser",
    ("GET", "/lead-status-changes/{id}"): "LeadStatusChanges_GetForCurrentUser",
    ("POST", "/tags/all"): "Tags_GetAllForCurrentOrganization",
    ("POST", "/sms/all"): "Sms_GetAllForCurrentOrganization",
    ("GET", "/sms/{id}"): "Sms_GetForCurrentOrganization",
}


def published_by_route() -> dict[tuple[str, str], Any]:
    return {(op.method, op.path): op for op in iter_operations(published_contract())}


# -- the contract ------------------------------------------------------------------------


def test_the_reference_operations_keep_their_paths_and_ids() -> None:
    reference = {(op.method, op.path): op.operation_id for op in iter_operations(load_contract())}
    published = {route: op.operation_id for route, op in published_by_route().items()}
    assert len(reference) == 12
    assert {route: published[route] for route in reference} == reference


def test_every_read_is_published_with_an_aspnet_operation_id() -> None:
    published = published_by_route()
    assert {route: published[route].operation_id for route in READS} == READS


def test_every_added_operation_is_assumed_aspnet_named_and_served() -> None:
    reference = {(op.method, op.path) for op in iter_operations(load_contract())}
    added = [op for route, op in published_by_route().items() if route not in reference]
    assert len(added) == 15
    for op in added:
        assert ASPNET_ID.match(op.operation_id), op.operation_id
        assert op.spec.get("x-leadctl-assumed") is True, op.operation_id
    served = handlers()
    assert {op.operation_id for op in published_by_route().values()} == set(served)
    # Each is found where the table says (its module is imported only when first called).
    assert all(callable(served[operation_id]) for operation_id in served)


def test_collection_reads_are_post_all_with_request_data_options() -> None:
    schemas = published_contract()["components"]["schemas"]
    for (method, path), operation_id in READS.items():
        if not path.endswith("/all"):
            continue
        op = published_by_route()[(method, path)]
        assert method == "POST" and "GetAll" in operation_id
        assert op.spec["x-leadctl-retry-safe"] is True
        ref = op.spec["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        options = schemas[ref.rsplit("/", 1)[1]]
        assert options["allOf"][0] == {"$ref": "#/components/schemas/RequestDataOptions"}
        assert options["x-leadctl-assumed"] is True
        answer = op.spec["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        collection = schemas[answer.rsplit("/", 1)[1]]
        assert collection["allOf"][0] == {"$ref": "#/components/schemas/CollectionResponse"}


def test_pending_rules_poll_the_published_reads() -> None:
    ids = {op.operation_id: op for op in iter_operations(published_contract())}
    assert ids["createLead"].spec["x-leadctl-pending"]["poll"] == "Leads_GetForCurrentUser"
    assert ids["Sms_Send"].spec["x-leadctl-pending"]["poll"] == "Sms_GetForCurrentOrganization"


# -- the sandbox serves them -------------------------------------------------------------


def every_item(api: httpx.Client, path: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """All pages, one item per page: the continuation tokens carry the whole collection."""
    items: list[dict[str, Any]] = []
    token = None
    while True:
        response = api.post(path, json={**body, "pageSize": 1, "continuationToken": token})
        assert response.status_code == 200, response.text
        page = response.json()
        items += page["items"]
        token = page["continuationToken"]
        if token is None:
            return items


def test_sources_list_and_get(api: httpx.Client, info: dict[str, Any]) -> None:
    listed = every_item(api, "/sources/all", {})
    assert sorted(s["id"] for s in listed) == sorted(s["id"] for s in info["sources"])
    one = api.get(f"/sources/{listed[0]['id']}")
    assert one.status_code == 200 and one.json() == listed[0]
    assert api.get("/sources/no-such-source").status_code == 404


def test_automations_list_and_get(api: httpx.Client, info: dict[str, Any]) -> None:
    listed = every_item(api, "/automations/all", {})
    assert sorted(a["id"] for a in listed) == sorted(a["id"] for a in info["automations"])
    assert [a["name"] for a in listed] == sorted(a["name"] for a in listed)  # default order
    first = listed[0]
    runs = api.get(f"/automations/{first['id']}/runs").json()["runs"]
    assert first["runCount"] == len(runs) and first["lastRunAt"] == runs[0]["startedAt"]
    assert api.get(f"/automations/{first['id']}").json() == first
    assert api.get("/automations/no-such-automation").status_code == 404


def test_phone_numbers_list_get_and_status_by_number(api: httpx.Client) -> None:
    listed = every_item(api, "/phone-numbers/all", {})
    assert len(listed) >= 2
    assert [n["number"] for n in listed] == sorted(n["number"] for n in listed)
    one = listed[0]
    assert api.get(f"/phone-numbers/{one['id']}").json() == one
    status = api.get(f"/phone-numbers/{one['number']}/status")
    assert status.status_code == 200 and status.json()["number"] == one["number"]
    approved = api.post(
        "/phone-numbers/all", json={"filters": [{"field": "smsApproved", "value": False}]}
    ).json()["items"]
    assert approved and all(not n["smsApproved"] for n in approved)


def history_of(api: httpx.Client, lead_id: str) -> list[dict[str, Any]]:
    return every_item(
        api, "/lead-status-changes/all", {"filters": [{"field": "leadId", "value": lead_id}]}
    )


def lead_with_history(api: httpx.Client, minimum: int) -> tuple[dict[str, Any], list[Any]]:
    token = None
    while True:
        page = api.post(
            "/leads/all/my",
            json={"pageSize": 50, "continuationToken": token,
                  "filters": [{"field": "processingStatus", "value": "Accepted"}]},
        ).json()  # fmt: skip
        for lead in page["items"]:
            history = history_of(api, lead["id"])
            if len(history) >= minimum:
                return lead, history
        token = page["continuationToken"]
        assert token, "no seeded lead has that much history"


def test_a_leads_status_history_is_linked_in_order(api: httpx.Client) -> None:
    lead, history = lead_with_history(api, 3)
    assert api.get(f"/leads/{lead['id']}").json()["currentStatusChangeId"] == history[-1]["id"]
    assert [c["changedAt"] for c in history] == sorted(c["changedAt"] for c in history)
    for before, after in itertools.pairwise(history):
        assert after["oldLeadStatusChangeId"] == before["id"]
        assert before["newLeadStatusChangeId"] == after["id"]
    assert history[0]["oldLeadStatusChangeId"] is None
    assert history[-1]["newLeadStatusChangeId"] is None
    for change in history:
        assert change["leadId"] == lead["id"]
        assert api.get(f"/lead-status-changes/{change['id']}").json() == change


def test_a_deleted_status_change_is_gone_from_the_reads(fresh_sandbox: SandboxProcess) -> None:
    with fresh_sandbox.client() as api:
        lead, history = lead_with_history(api, 3)
        middle = history[1]
        assert api.delete(f"/lead-status-changes/{middle['id']}").status_code == 204
        assert api.get(f"/lead-status-changes/{middle['id']}").status_code == 404
        after = history_of(api, lead["id"])
        assert [c["id"] for c in after] == [history[0]["id"], *(c["id"] for c in history[2:])]
        assert after[1]["oldLeadStatusChangeId"] == history[0]["id"]


def test_tags_and_sms_lists(fresh_sandbox: SandboxProcess) -> None:
    with fresh_sandbox.client() as api:
        tags = every_item(api, "/tags/all", {})
        assert [t["name"] for t in tags] == sorted(t["name"] for t in tags)
        sent = api.post("/sms", json={"to": "+15125550143", "body": "Listed?"}).json()
        listed = api.post("/sms/all", json={}).json()["items"]
        assert [m["id"] for m in listed] == [sent["id"]]
        assert api.get(f"/sms/{sent['id']}").json()["body"] == "Listed?"
        queued = api.post("/sms/all", json={"filters": [{"field": "status", "value": "Sent"}]})
        assert queued.status_code == 200


def test_a_lead_is_read_by_id(api: httpx.Client) -> None:
    lead = api.post("/leads/all/my", json={"pageSize": 1}).json()["items"][0]
    assert api.get(f"/leads/{lead['id']}").json() == lead
    assert api.get("/leads/no-such-lead").status_code == 404


@pytest.mark.parametrize(("method", "path"), sorted(READS))
def test_reads_take_a_read_only_user_but_not_a_source_key(
    sandbox: SandboxProcess, method: str, path: str
) -> None:
    concrete = path.replace("{id}", "x")
    body = json.dumps({}) if method == "POST" else None
    headers = {"Content-Type": "application/json"}
    with sandbox.client(sandbox.credentials.read_only_user) as reader:
        assert reader.request(method, concrete, content=body, headers=headers).status_code in (
            200,
            404,
        )
    with sandbox.client(sandbox.credentials.source) as source:
        assert source.request(method, concrete, content=body, headers=headers).status_code == 403

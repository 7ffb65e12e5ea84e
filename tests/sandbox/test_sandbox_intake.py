"""Lead intake completes later, under the source's rules; the source's timestamps follow."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx

from tests.support.sandbox_server import SandboxProcess


def _source(info: dict[str, Any], name: str) -> str:
    return str(next(s["id"] for s in info["sources"] if s["name"] == name))


def _lead(**fields: Any) -> dict[str, Any]:
    unique = uuid.uuid4().hex[:10]
    return {"firstName": "Test", "lastName": unique, "email": f"{unique}@example.com", **fields}


def _intake(sandbox: SandboxProcess, credential: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(sandbox.url("/leads"), json=body, headers=sandbox.headers(credential))


def _settled(sandbox: SandboxProcess, lead_id: str, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    with sandbox.client() as api:
        while True:
            page = api.post(
                "/leads/all/my", json={"filters": [{"field": "id", "value": lead_id}]}
            ).json()
            (lead,) = page["items"]
            if lead["processingStatus"] != "Pending" or time.monotonic() > deadline:
                return dict(lead)
            time.sleep(0.05)


def test_intake_answers_pending_then_moves_on(
    sandbox: SandboxProcess, info: dict[str, Any]
) -> None:
    key = sandbox.credentials.sources[_source(info, "Website form")]
    started = time.monotonic()
    response = _intake(sandbox, key, _lead(phone="+15125550123", state="CA", product="hvac"))
    assert response.status_code == 202
    created = response.json()
    assert created["id"]
    assert created["processingStatus"] == "Pending"
    assert created["status"] is None
    lead = _settled(sandbox, created["id"])
    assert time.monotonic() - started >= 0.2  # not before the intake delay
    assert lead["processingStatus"] == "Accepted"
    assert lead["processingError"] is None
    assert lead["status"]["name"] == "New"
    assert lead["sourceId"] == _source(info, "Website form")
    assert "Web" in [tag["name"] for tag in lead["tags"]]  # the source's default tag


def test_source_timestamps_follow_intake(fresh_sandbox: SandboxProcess) -> None:
    info = fresh_sandbox.info()
    promo = _source(info, "Spring promo 2024")
    with fresh_sandbox.client() as api:
        before = api.put(f"/sources/{promo}", json={}).json()
        assert before["firstLeadReceivedAt"] is None and before["lastLeadReceivedAt"] is None
        first = _intake(
            fresh_sandbox, fresh_sandbox.credentials.sources[promo], _lead(phone="+15125550101")
        )
        after_one = api.put(f"/sources/{promo}", json={}).json()
        second = _intake(
            fresh_sandbox, fresh_sandbox.credentials.sources[promo], _lead(phone="+15125550102")
        )
        after_two = api.put(f"/sources/{promo}", json={}).json()
    assert after_one["firstLeadReceivedAt"] == first.json()["createdAt"]
    assert after_one["lastLeadReceivedAt"] == first.json()["createdAt"]
    assert after_two["firstLeadReceivedAt"] == first.json()["createdAt"]
    assert after_two["lastLeadReceivedAt"] == second.json()["createdAt"]


def test_disabled_source_rejects_its_leads(fresh_sandbox: SandboxProcess) -> None:
    promo = _source(fresh_sandbox.info(), "Spring promo 2024")
    response = _intake(
        fresh_sandbox, fresh_sandbox.credentials.sources[promo], _lead(phone="+15125550109")
    )
    lead = _settled(fresh_sandbox, response.json()["id"])
    assert lead["processingStatus"] == "Rejected"
    assert "disabled" in lead["processingError"]
    assert lead["status"] is None


def test_marketplace_rules_apply_at_intake(sandbox: SandboxProcess, info: dict[str, Any]) -> None:
    market = _source(info, "Solar Leads Marketplace")
    key = sandbox.credentials.sources[market]
    consent = {"consentCertificate": "https://consent.example/certificates/abc"}
    cases = {
        "state": _lead(phone="+15125550131", state="OH", product="solar", **consent),
        "product": _lead(phone="+15125550132", state="TX", product="roofing", **consent),
        "consent": _lead(phone="+15125550133", state="TX", product="solar"),
        "ok": _lead(phone="+15125550134", state="tx", product="Solar", **consent),
    }
    ids = {name: _intake(sandbox, key, body).json()["id"] for name, body in cases.items()}
    leads = {name: _settled(sandbox, lead_id) for name, lead_id in ids.items()}
    assert "allowedStates" in leads["state"]["processingError"]
    assert "allowedProducts" in leads["product"]["processingError"]
    assert "consent certificate" in leads["consent"]["processingError"]
    for name in ("state", "product", "consent"):
        assert leads[name]["processingStatus"] == "Rejected"
    accepted = leads["ok"]
    assert accepted["processingStatus"] == "Accepted"
    assert {"Marketplace", "Solar"} <= {tag["name"] for tag in accepted["tags"]}


def test_organization_key_intake_with_and_without_a_source(
    api: httpx.Client, sandbox: SandboxProcess
) -> None:
    unknown = api.post("/leads", json=_lead(phone="+15125550141", sourceId="nope"))
    plain = api.post("/leads", json=_lead(phone="+15125550142", tags=["VIP", "vip"]))
    assert unknown.status_code == plain.status_code == 202
    assert "unknown source" in _settled(sandbox, unknown.json()["id"])["processingError"]
    lead = _settled(sandbox, plain.json()["id"])
    assert lead["processingStatus"] == "Accepted"
    assert [tag["name"] for tag in lead["tags"]] == ["VIP"]


def test_source_key_decides_the_source(sandbox: SandboxProcess, info: dict[str, Any]) -> None:
    web = _source(info, "Website form")
    body = _lead(phone="+15125550151", sourceId=_source(info, "Solar Leads Marketplace"))
    response = _intake(sandbox, sandbox.credentials.sources[web], body)
    assert response.json()["sourceId"] == web


def test_invalid_leads_are_400_with_field_errors(api: httpx.Client) -> None:
    bad_phone = api.post("/leads", json={"phone": "512-555-0100"})
    assert bad_phone.status_code == 400
    assert list(bad_phone.json()["errors"]) == ["phone"]
    nothing = api.post("/leads", json={"firstName": "Only a name"})
    assert nothing.status_code == 400
    assert set(nothing.json()["errors"]) == {"phone", "email"}
    bad_tags = api.post("/leads", json={"phone": "+15125550100", "tags": [""]})
    assert list(bad_tags.json()["errors"]) == ["tags[0]"]

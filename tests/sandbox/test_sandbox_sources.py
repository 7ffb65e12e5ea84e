"""PUT /sources/{id} in both forms, and key rotation: hash-only storage, old key dead at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from leadctl_sandbox.db import DB_FILE
from tests.support.sandbox_server import SandboxProcess, sandbox_server

LEAD = {"firstName": "Rory", "phone": "+15125550188", "state": "TX", "product": "solar"}


def _source(info: dict[str, Any], name: str) -> str:
    return str(next(s["id"] for s in info["sources"] if s["name"] == name))


def test_name_over_255_characters_is_400_with_field_error(
    api: httpx.Client, info: dict[str, Any]
) -> None:
    source_id = _source(info, "Referral partners")
    response = api.put(f"/sources/{source_id}", json={"name": "n" * 256})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json"
    assert list(response.json()["errors"]) == ["name"]
    assert api.put(f"/sources/{source_id}", json={"name": "n" * 255}).status_code == 200


def test_current_form_updates_allowlists_and_default_tags(
    api: httpx.Client, info: dict[str, Any]
) -> None:
    source_id = _source(info, "Referral partners")
    response = api.put(
        f"/sources/{source_id}",
        json={
            "allowedStates": ["TX", "OK"],
            "allowedProducts": ["roofing"],
            "defaultTagNames": ["Partner referral"],
            "requiresConsentCertificate": False,
            "description": "Partners in TX and OK.",
        },
    )
    assert response.status_code == 200
    source = response.json()
    assert source["allowedStates"] == ["TX", "OK"]
    assert source["allowedProducts"] == ["roofing"]
    assert [tag["name"] for tag in source["defaultTags"]] == ["Partner referral"]
    assert source["defaultTagIds"] == [tag["id"] for tag in source["defaultTags"]]
    assert source["defaultTags"][0]["normalizedName"] == "partner-referral"
    again = api.put(f"/sources/{source_id}", json={"defaultTagIds": source["defaultTagIds"]})
    assert again.json()["defaultTagIds"] == source["defaultTagIds"]
    assert again.json()["modifiedAt"] is not None


def test_unknown_default_tag_id_is_400(api: httpx.Client, info: dict[str, Any]) -> None:
    source_id = _source(info, "Referral partners")
    response = api.put(f"/sources/{source_id}", json={"defaultTagIds": ["no-such-tag"]})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["defaultTagIds"]


def test_older_form_requires_name(api: httpx.Client, info: dict[str, Any]) -> None:
    source_id = _source(info, "Referral partners")
    response = api.put(f"/sources/{source_id}", json={"enabled": True, "businessId": "b-1"})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["name"]


def test_older_form_is_accepted_and_its_api_key_never_stored(
    fresh_sandbox: SandboxProcess,
) -> None:
    source_id = _source(fresh_sandbox.info(), "Referral partners")
    planted = "src_" + "f" * 40
    with fresh_sandbox.client() as api:
        response = api.put(
            f"/sources/{source_id}",
            json={
                "id": "ignored",
                "name": "Referral partners (legacy)",
                "description": None,
                "enabled": False,
                "apiKey": planted,
                "businessId": "b-42",
            },
        )
    assert response.status_code == 200
    source = response.json()
    assert source["id"] == source_id
    assert source["name"] == "Referral partners (legacy)"
    assert source["enabled"] is False
    assert source["description"] == "Roofing and HVAC referrals from partner contractors."
    assert "apiKey" not in source
    assert not source["apiKeyPreview"].endswith(planted[-4:])
    intake = httpx.post(
        fresh_sandbox.url("/leads"), json=LEAD, headers=fresh_sandbox.headers(planted)
    )
    assert intake.status_code == 401


def test_unknown_source_is_404(api: httpx.Client) -> None:
    response = api.put("/sources/no-such-source", json={"description": "x"})
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    rotate = api.post("/sources/no-such-source/credentials/rotate")
    assert rotate.status_code == 404


def test_rotation_invalidates_the_old_key_at_once_and_returns_the_new_one_once(
    fresh_sandbox: SandboxProcess,
) -> None:
    source_id = _source(fresh_sandbox.info(), "Website form")
    old_key = fresh_sandbox.credentials.sources[source_id]
    with fresh_sandbox.client() as api:
        before = api.put(f"/sources/{source_id}", json={}).json()
        rotated = api.post(f"/sources/{source_id}/credentials/rotate")
        assert rotated.status_code == 200
        body = rotated.json()
        new_key = body["secret"]
        assert new_key.startswith("src_") and new_key != old_key
        assert body["source"]["apiKeyPreview"].endswith(new_key[-4:])
        assert new_key not in body["source"]["apiKeyPreview"]
        assert body["source"]["apiKeyRotatedAt"] > (before["apiKeyRotatedAt"] or "")
        after = api.put(f"/sources/{source_id}", json={}).json()
    assert "secret" not in after
    assert new_key not in str(after)
    old = httpx.post(fresh_sandbox.url("/leads"), json=LEAD, headers=fresh_sandbox.headers(old_key))
    assert old.status_code == 401
    new = httpx.post(fresh_sandbox.url("/leads"), json=LEAD, headers=fresh_sandbox.headers(new_key))
    assert new.status_code == 202
    with fresh_sandbox.client() as api:
        newer = api.post(f"/sources/{source_id}/credentials/rotate").json()["secret"]
    again = httpx.post(
        fresh_sandbox.url("/leads"), json=LEAD, headers=fresh_sandbox.headers(new_key)
    )
    assert again.status_code == 401
    assert newer != new_key


def _state_bytes(data_dir: Path) -> bytes:
    return b"".join(
        path.read_bytes() for path in data_dir.iterdir() if path.name.startswith(DB_FILE)
    )


def test_keys_are_stored_only_as_hash_and_preview(tmp_path: Path) -> None:
    data_dir = tmp_path / "state"
    with sandbox_server(data_dir=data_dir) as sandbox:
        source_id = next(iter(sandbox.credentials.sources))
        with sandbox.client() as api:
            secret = api.post(f"/sources/{source_id}/credentials/rotate").json()["secret"]
        demo_key = next(iter(sandbox.credentials.sources.values()))
    assert (data_dir / DB_FILE).stat().st_mode & 0o777 == 0o600
    stored = _state_bytes(data_dir)
    for key in (secret, demo_key, sandbox.credentials.org):
        assert key.encode() not in stored, "a key is stored readable"
    assert secret[-4:].encode() in stored  # the preview is

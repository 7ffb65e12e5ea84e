"""The validating mock itself: valid requests pass, each kind of invalid one is recorded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.contract_fixture.bodies import INTAKE
from tests.support.contract_mock import ContractMock, serve_contract
from tests.support.contract_mock_fixtures import (
    CREDENTIALS,
    ORG_KEY,
    SCHEME_KINDS,
    SOURCE_KEY,
    load_contract,
)

FULL_SOURCE_UPDATE = {
    "name": "Website form",
    "description": None,
    "allowedStates": ["TX"],
    "allowedProducts": [],
    "defaultTagIds": [],
    "defaultTagNames": ["web"],
}


@pytest.fixture(params=["3.1", "3.0"], ids=lambda v: f"openapi-{v}")
def mock(request: pytest.FixtureRequest) -> Iterator[ContractMock]:
    with serve_contract(
        load_contract(request.param), credentials=CREDENTIALS, scheme_kinds=SCHEME_KINDS
    ) as served:
        yield served


def send(
    mock: ContractMock,
    method: str,
    path: str,
    *,
    token: str | None = ORG_KEY,
    headers: dict[str, str] | None = None,
    **kwargs: Any,
) -> httpx.Response:
    sent = dict(headers or {})
    if token is not None:
        sent.setdefault("Authorization", f"Bearer {token}")
    return httpx.request(method, mock.base_url + path, headers=sent, timeout=10, **kwargs)


def test_a_valid_full_put_is_answered_with_a_schema_valid_source(mock: ContractMock) -> None:
    response = send(mock, "PUT", "/sources/s1", json=FULL_SOURCE_UPDATE)

    assert response.status_code == 200, response.text
    assert mock.violations() == []
    schema = mock.response_schema("PUT", "/sources/{id}")
    assert mock.schemas.errors(schema, response.json()) == []
    [recorded] = mock.requests
    assert (recorded.operation_id, recorded.credential) == ("Sources_Update", "org")
    assert "authorization" not in recorded.headers


def test_a_partial_put_is_a_400_naming_the_missing_fields(mock: ContractMock) -> None:
    response = send(mock, "PUT", "/sources/s1", json={"name": "X", "id": "s1"})

    assert response.status_code == 400
    found = "\n".join(mock.violations())
    for missing in ("allowedStates", "allowedProducts", "defaultTagIds", "defaultTagNames"):
        assert f'"{missing}" is a required property' in found
    assert "'id' was unexpected" in found


def test_nested_intake_passes_and_a_flat_one_does_not(mock: ContractMock) -> None:
    assert send(mock, "POST", "/leads", json=INTAKE).status_code == 200
    flat = send(mock, "POST", "/leads", json={"firstName": "Ada", "phone": "+15125550123"})

    assert flat.status_code == 400
    assert len(mock.requests_to("POST", "/leads")[1].violations) >= 5


def test_credentials_follow_each_operations_security(mock: ContractMock) -> None:
    intake_by_key = send(
        mock, "POST", "/leads", token=None, headers={"X-Source-Key": SOURCE_KEY}, json=INTAKE
    )
    public_with_key = send(mock, "GET", "/health")
    public_without = send(mock, "GET", "/health", token=None)
    missing = send(mock, "GET", "/tags", token=None)
    source_key_as_bearer = send(mock, "GET", "/tags", token=SOURCE_KEY)

    assert intake_by_key.status_code == 200
    assert public_with_key.status_code == 400
    assert public_without.status_code == 200
    assert missing.status_code == 401
    assert source_key_as_bearer.status_code == 401
    assert mock.violations() == [
        "GET /health: credential sent (Bearer) to an anonymous operation",
        "GET /tags: no credential for Bearer",
        "GET /tags: a source credential sent as Bearer",
    ]
    assert mock.requests[0].credential == "source"
    assert mock.requests[0].credential_header == "x-source-key"


def test_query_parameters_are_required_typed_and_known(mock: ContractMock) -> None:
    ok = send(mock, "GET", "/suppressions/check", params={"phoneNumber": "+15125550123"})
    missing = send(mock, "GET", "/suppressions/check")
    not_e164 = send(mock, "GET", "/suppressions/check", params={"phoneNumber": "5125550123"})
    typed = send(mock, "GET", "/phone-numbers/search", params={"areaCode": "512", "limit": "x"})
    unknown = send(mock, "GET", "/tags", params={"pageSize": "5"})

    assert ok.status_code == 200
    assert [r.status_code for r in (missing, not_e164, typed, unknown)] == [400] * 4
    found = mock.violations()
    assert "missing required query parameter 'phoneNumber'" in found[0]
    assert "does not match" in found[1]
    assert "query parameter limit" in found[2]
    assert "unknown query parameter 'pageSize'" in found[3]


def test_media_types_follow_the_listed_ones(mock: ContractMock) -> None:
    body = b'{"type": "Call", "outcome": "Reached"}'
    vendor = send(
        mock,
        "PUT",
        "/lead-status-changes/c1",
        content=body,
        headers={"Content-Type": "application/vnd.leads+json"},
    )
    literal_pattern = send(
        mock,
        "PUT",
        "/lead-status-changes/c1",
        content=body,
        headers={"Content-Type": "application/*+json"},
    )
    text = send(
        mock,
        "PUT",
        "/lead-status-changes/c1",
        content=body,
        headers={"Content-Type": "text/plain"},
    )

    assert vendor.status_code == 200
    assert (literal_pattern.status_code, text.status_code) == (415, 415)


def test_multipart_and_form_bodies_are_read_and_checked(mock: ContractMock) -> None:
    upload = send(mock, "POST", "/sms/media", files={"file": ("a.png", b"\x89PNG", "image/png")})
    no_file = send(mock, "POST", "/sms/media", files={"description": (None, b"x")})
    form = send(mock, "POST", "/feedback", data={"category": "Idea", "message": "More"})
    bad_form = send(mock, "POST", "/feedback", data={"category": "Nope", "message": "More"})

    assert (upload.status_code, form.status_code) == (201, 204)
    assert (no_file.status_code, bad_form.status_code) == (400, 400)
    first = mock.requests[0]
    assert first.files == {"file": ("a.png", b"\x89PNG")}
    assert mock.requests[2].form == {"category": "Idea", "message": "More"}


def test_literal_segments_win_over_parameters(mock: ContractMock) -> None:
    send(mock, "PUT", "/lead-statuses/order", json={"ids": ["a", "b"]})
    send(mock, "GET", "/lead-statuses/s1")

    assert [r.operation_id for r in mock.requests] == ["LeadStatuses_Reorder", "LeadStatuses_Get"]
    assert mock.violations() == []


def test_unknown_paths_and_methods_are_violations(mock: ContractMock) -> None:
    assert send(mock, "GET", "/nowhere").status_code == 404
    assert send(mock, "PATCH", "/tags").status_code == 405
    assert len(mock.violations()) == 2


def test_etags_and_if_match(mock: ContractMock) -> None:
    read = send(mock, "GET", "/sources/s1")
    etag = read.headers["ETag"]
    first = send(mock, "PUT", "/sources/s1", json=FULL_SOURCE_UPDATE, headers={"If-Match": etag})
    stale = send(mock, "PUT", "/sources/s1", json=FULL_SOURCE_UPDATE, headers={"If-Match": etag})

    assert etag == mock.etag("/sources/s1").replace("-2", "-1")
    assert (first.status_code, stale.status_code) == (200, 412)
    assert mock.violations() == []


def test_collections_end_and_replies_can_be_set(mock: ContractMock) -> None:
    page = send(mock, "POST", "/leads/all/my", json={"pageSize": 10})
    mock.reply("GET", "/tags/{id}", body={"id": "t1", "name": "vip"}, headers={"ETag": '"x"'})
    tag = send(mock, "GET", "/tags/t1")

    assert "continuationToken" not in page.json()
    assert len(page.json()["items"]) == 1
    assert (tag.json(), tag.headers["ETag"]) == ({"id": "t1", "name": "vip"}, '"x"')


def test_nullable_fields_accept_null_in_both_variants(mock: ContractMock) -> None:
    body = {**FULL_SOURCE_UPDATE, "requiresConsentCertificate": None}

    assert send(mock, "PUT", "/sources/s1", json=body).status_code == 200
    assert send(mock, "PUT", "/sources/s1", json={**body, "name": None}).status_code == 400


def test_every_synthesized_answer_is_valid_against_its_schema(mock: ContractMock) -> None:
    checked = 0
    for route in mock.routes:
        schema = mock.response_schema(route.method, route.template)
        if schema is None:
            continue
        _status, body = mock.example_response(route.method, route.template)
        assert mock.schemas.errors(schema, body) == [], (route.method, route.template)
        checked += 1
    assert checked > 90


# -- the service's own contract: read-only fields, issued secrets, secrets sent back ------------


@pytest.fixture(params=["3.1", "3.0"], ids=lambda v: f"openapi-{v}")
def trait(request: pytest.FixtureRequest) -> Iterator[ContractMock]:
    with serve_contract(
        load_contract(request.param, "traits"), credentials=CREDENTIALS, scheme_kinds=SCHEME_KINDS
    ) as served:
        yield served


TRAIT_UPDATE = {**FULL_SOURCE_UPDATE, "defaultTagIds": ["t1"]}


def test_a_read_only_property_sent_is_a_violation(trait: ContractMock) -> None:
    body = {**TRAIT_UPDATE, "apiKeyPreview": "src_…9f2a"}

    response = send(trait, "PUT", "/sources/s1", json=body)

    assert response.status_code == 400
    assert trait.violations() == [
        "PUT /sources/s1: body /apiKeyPreview: a read-only property was sent"
    ]


def test_a_flagged_put_is_answered_with_a_new_secret_and_a_secret_sent_back_is_a_finding(
    trait: ContractMock,
) -> None:
    trait.issue_secret("PUT", "/sources/{id}", flag="regenerateApiKey", field="apiKey")

    plain = send(trait, "PUT", "/sources/s1", json=TRAIT_UPDATE)
    rotated = send(trait, "PUT", "/sources/s1", json={**TRAIT_UPDATE, "regenerateApiKey": True})
    (issued,) = trait.issued
    sent_back = send(trait, "PUT", "/sources/s1", json={**TRAIT_UPDATE, "apiKey": issued})

    assert plain.json()["apiKey"] != issued
    assert rotated.json()["apiKey"] == issued
    assert sent_back.status_code == 200  # valid: a finding, not a violation
    assert trait.violations() == []
    assert trait.findings() == ["PUT /sources/s1: sent back the secret the service gave in apiKey"]


def test_a_next_page_must_repeat_the_query_and_send_the_token_as_answered(
    mock: ContractMock,
) -> None:
    query = {"pageSize": 2, "search": "ada"}
    for _ in range(3):
        mock.reply("POST", "/leads/all/my", body={"items": [], "continuationToken": "t+1= "})
    assert send(mock, "POST", "/leads/all/my", json=query).status_code == 200

    same = send(mock, "POST", "/leads/all/my", json={**query, "continuationToken": "t+1= "})
    assert same.status_code == 200 and mock.violations() == []

    resized = send(
        mock, "POST", "/leads/all/my", json={"pageSize": 5, "continuationToken": "t+1= "}
    )
    trimmed = send(mock, "POST", "/leads/all/my", json={**query, "continuationToken": "t+1="})

    assert (resized.status_code, trimmed.status_code) == (400, 400)
    found = "\n".join(mock.violations())
    assert "is not the query it continues" in found
    assert "continuationToken 't+1=' was never answered" in found

"""Errors are application/problem+json with a traceId; validation errors are keyed by field."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess


def _assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["title"]
    assert body["traceId"] == response.headers["x-trace-id"]
    assert body["instance"] == response.request.url.raw_path.decode().split("?")[0]
    return body


def test_validation_errors_are_keyed_by_json_field_name(api: httpx.Client) -> None:
    response = api.put(
        "/users/compliance",
        json={"compliance": {"acceptedTerms": "yes", "consentCertificates": [1]}, "source": 7},
    )
    body = _assert_problem(response, 400)
    assert body["errors"] == {
        "compliance.acceptedTerms": ["must be a JSON boolean"],
        "compliance.consentCertificates[0]": ["must be a JSON object"],
        "source": ["must be a JSON string or null"],
    }


# The sandbox words the verdicts of the schema engine leadctl uses (jsonschema-rs) per field,
# without quoting the refused value.
@pytest.mark.parametrize(
    ("path", "body", "errors"),
    [
        # dependentRequired: one message per field given that needs the missing one.
        (
            "/sources/src_x",
            {"id": "src_x", "enabled": "yes"},
            {
                "enabled": ["must be a JSON boolean or null"],
                "name": ["is required when id is given", "is required when enabled is given"],
            },
        ),
        # An unknown field of a closed schema, an empty string, an impossible date.
        (
            "/sms",
            {"to": "+15551234567", "body": "", "sendAt": "2025-02-30T00:00:00Z", "x": [1]},
            {
                "body": ["must not be empty"],
                "sendAt": ["must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z"],
                "x": ["is not a known field"],
            },
        ),
        # A leap second reads as RFC 3339 to the library but not to the sandbox's parser.
        (
            "/lead-status-changes/lsc_x",
            {"callbackAt": "2025-12-31T23:59:60Z"},
            {"callbackAt": ["must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z"]},
        ),
        # Nested items by [i] path; bounds; a required field of an item.
        (
            "/leads/all/my",
            {"pageSize": 0, "filters": [{"field": "email"}], "orderBy": "x"},
            {
                "filters[0].value": ["is required"],
                "orderBy": ["must be a JSON array or null"],
                "pageSize": ["must be at least 1"],
            },
        ),
        (
            "/tags",
            {"name": "x" * 51, "color": "red"},
            {"color": ["must match ^#[0-9a-fA-F]{6}$"], "name": ["must be at most 50 characters"]},
        ),
    ],
)
def test_invalid_bodies_name_each_field_and_rule(
    api: httpx.Client, path: str, body: dict[str, Any], errors: dict[str, list[str]]
) -> None:
    method = "PUT" if path.startswith(("/sources/", "/lead-status-changes/")) else "POST"
    response = api.request(method, path, json=body)
    assert _assert_problem(response, 400)["errors"] == errors


def test_nan_is_not_json(api: httpx.Client, sandbox: SandboxProcess) -> None:
    # Python's json reads NaN; the service's JSON does not, whatever the field's schema.
    response = api.post(
        "/leads/all/my", content=b'{"search": NaN}', headers={"Content-Type": "application/json"}
    )
    assert _assert_problem(response, 400)["errors"] == {"body": ["is not valid JSON"]}
    # The request log keeps it as bytes it could not read, and can still be listed.
    logged = [e for e in sandbox.requests() if e.get("body") == {"unparsed": True, "bytes": 15}]
    assert logged


def test_body_that_is_not_json_is_400(api: httpx.Client) -> None:
    response = api.post(
        "/leads/all/my", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert _assert_problem(response, 400)["errors"] == {"body": ["is not valid JSON"]}
    missing = api.put("/users/compliance")
    assert list(_assert_problem(missing, 400)["errors"]) == ["body"]


def test_query_and_path_parameters_are_validated(api: httpx.Client) -> None:
    bad_window = api.get("/phone-numbers/%2B15125550100/status", params={"windowDays": "week"})
    assert list(_assert_problem(bad_window, 400)["errors"]) == ["windowDays"]
    bad_number = api.get("/phone-numbers/5125550100/status")
    assert list(_assert_problem(bad_number, 400)["errors"]) == ["phoneNumber"]


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/nowhere", 404), ("DELETE", "/sources/x", 405), ("PATCH", "/lead-statuses", 405)],
)
def test_unknown_paths_and_methods(api: httpx.Client, method: str, path: str, status: int) -> None:
    response = api.request(method, path)
    _assert_problem(response, status)
    if status == 405:
        assert response.headers["allow"] in ("GET, PUT", "GET")


def test_each_error_has_its_own_trace_id(sandbox: SandboxProcess) -> None:
    first = httpx.get(sandbox.url("/lead-statuses"))
    second = httpx.get(sandbox.url("/lead-statuses"))
    assert _assert_problem(first, 401)["traceId"] != _assert_problem(second, 401)["traceId"]

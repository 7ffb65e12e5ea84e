"""Generated output that reads well (issue 12, point 4): table columns chosen from the
response schema, ids and phone numbers never cut, date-time input in the curated forms,
phone path parameters in E.164."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from pytest_httpx import HTTPXMock

from leadctl.contract.index import compile_index
from tests.support.cli import BASE_URL, Result, run_cli, token_env

Importer = Callable[..., Result]
OK = "200"


def _get(operation_id: str, tag: str, schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "operationId": operation_id,
        "tags": [tag],
        "responses": {
            OK: {"description": "OK.", "content": {"application/json": {"schema": schema}}}
        },
        **extra,
    }


CALL = {"$ref": "#/components/schemas/Call"}
DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Calls", "version": "1.0"},
    "security": [{"bearerAuth": []}],
    "paths": {
        "/calls": {
            "get": _get(
                "listCalls",
                "Calls",
                {"type": "array", "items": CALL},
                parameters=[
                    {
                        "name": "since",
                        "in": "query",
                        "schema": {"type": "string", "format": "date-time"},
                    }
                ],
            )
        },
        "/calls/{id}/reschedule": {
            "post": _get(
                "rescheduleCall",
                "Calls",
                CALL,
                parameters=[{"name": "id", "in": "path", "required": True, "schema": {}}],
                requestBody={
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["at"],
                                "properties": {
                                    "at": {"type": "string", "format": "date-time"},
                                    "note": {"type": "string"},
                                },
                            }
                        }
                    },
                },
            )
        },
        "/lines/{phoneNumber}": {
            "get": _get(
                "getLine",
                "Lines",
                {"type": "object", "properties": {"phoneNumber": {"type": "string"}}},
                parameters=[{"name": "phoneNumber", "in": "path", "required": True, "schema": {}}],
            )
        },
    },
    "components": {
        "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Call": {
                "type": "object",
                "properties": {
                    "notes": {"type": "string"},
                    "updatedAt": {"type": "string", "format": "date-time"},
                    "toPhoneNumber": {"type": "string"},
                    "owner": {
                        "type": "object",
                        "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
                    },
                    "durationSeconds": {"type": "integer"},
                    "status": {"type": "string"},
                    "leadId": {"type": "string"},
                    "title": {"type": "string"},
                    "id": {"type": "string"},
                    "answeredAt": {"type": "string", "format": "date-time"},
                    "createdAt": {"type": "string", "format": "date-time"},
                },
            }
        },
    },
}


def columns(operation_id: str) -> list[list[str]]:
    raw = json.dumps(DOCUMENT).encode()
    index, _ = compile_index(
        DOCUMENT, raw=raw, source="test", imported_at=None, curated_verbs={}, leadctl_version="t"
    )
    op = next(op for op in index["operations"] if op["id"] == operation_id)
    found: list[list[str]] = op["response"]["columns"]
    return found


def test_list_columns_are_id_name_status_phone_and_main_time_then_the_rest() -> None:
    assert columns("listCalls") == [
        ["id", "text", "whole"],
        ["title", "text"],
        ["status", "text"],
        ["toPhoneNumber", "text", "whole"],
        ["createdAt", "datetime"],
        ["notes", "text"],
        ["updatedAt", "datetime"],
    ]


def test_object_columns_show_nested_objects_by_name_and_mark_ids_whole() -> None:
    found = columns("rescheduleCall")
    assert ["owner.name", "text"] in found
    assert ["leadId", "text", "whole"] in found
    # Other times after the main ones.
    assert found.index(["createdAt", "datetime"]) < found.index(["answeredAt", "datetime"])


@pytest.fixture
def imported(import_contract: Importer) -> Result:
    return import_contract(DOCUMENT)


LONG_ID = "call_" + "0123456789abcdef" * 5  # 85 characters, no spaces


def test_a_long_id_and_a_phone_number_are_never_cut(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    call = {
        "id": LONG_ID,
        "title": "Callback about the quote for the new roof and gutters",
        "status": "Completed",
        "toPhoneNumber": "+1 512 555 0123 ext. 4567 (front desk)",
        "notes": "Long notes " * 10,
    }
    httpx_mock.add_response(url=f"{BASE_URL}/calls", json=[call])
    env = {**token_env(), "COLUMNS": "200", "NO_COLOR": "1"}
    result = run_cli(["calls", "list"], env=env, stdout_tty=True)
    assert result.exit_code == 0, result.stderr
    # Both too long to pass for a token or a label: as free text they would be shortened.
    assert LONG_ID in result.stdout
    assert call["toPhoneNumber"] in result.stdout
    assert call["notes"].strip() not in result.stdout  # free text still is


def test_date_time_parameters_take_the_curated_forms(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    env = {**token_env(), "TZ": "America/Chicago"}
    httpx_mock.add_response(json=[])
    httpx_mock.add_response(json=[])
    # Offset-less: in the zone (the profile's, else the system's); relative: from the clock.
    assert run_cli(["calls", "list", "--since", "2026-01-15T09:30"], env=env).exit_code == 0
    assert run_cli(["calls", "list", "--since", "-7d"], env=env).exit_code == 0
    sent = [parse_qs(urlsplit(str(r.url)).query)["since"] for r in httpx_mock.get_requests()]
    assert sent == [["2026-01-15T15:30:00Z"], ["2026-11-14T12:00:00Z"]]
    bad = run_cli(["calls", "list", "--since", "soon"], env=env)
    assert bad.exit_code == 2 and "--since 'soon'" in bad.stderr


def test_date_time_body_fields_take_the_curated_forms(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    env = {**token_env(), "TZ": "America/Chicago"}
    httpx_mock.add_response(url=f"{BASE_URL}/calls/c1/reschedule", json={"id": "c1"})
    result = run_cli(
        ["calls", "reschedule", "c1", "--field", "at=2026-07-01T08:00", "-o", "json"], env=env
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(httpx_mock.get_requests()[0].content) == {"at": "2026-07-01T13:00:00Z"}
    bad = run_cli(["calls", "reschedule", "c1", "--field", "at=whenever"], env=env)
    assert bad.exit_code == 2 and "at: 'whenever' is not a time" in bad.stderr


def test_a_phone_path_parameter_is_sent_in_e164(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{BASE_URL}/lines/%2B15125550123", json={"phoneNumber": "x"})
    set_region = run_cli(["profile", "set", "region", "US"])
    assert set_region.exit_code == 0, set_region.stderr
    result = run_cli(["lines", "get", "(512) 555-0123"], env=token_env())
    assert result.exit_code == 0, result.stderr
    bad = run_cli(["lines", "get", "12"], env=token_env())
    assert bad.exit_code == 2

"""Contract formats (OpenAPI 3.0 normalised to 3.1, 3.2, YAML; Swagger 2.0 refused), bad
input that stores nothing, and form bodies (multipart with --file, form-urlencoded)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.contract.formats import schema_to_31, to_31
from tests.generated.aspnet import aspnet
from tests.generated.contracts import write
from tests.support.cli import BASE_URL, Result, run_cli, token_env

Importer = Callable[..., Result]


def openapi_30() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Old", "version": "1"},
        "paths": {
            "/payments": {
                "post": {
                    "operationId": "Payments_Create",
                    "tags": ["Payments"],
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pay"}}
                        }
                    },
                    "responses": {"200": {"description": "OK"}},
                }
            }
        },
        "components": {
            "schemas": {
                "Pay": {
                    "type": "object",
                    "required": ["amount"],
                    "properties": {
                        "amount": {
                            "type": "integer",
                            "minimum": 0,
                            "exclusiveMinimum": True,
                            "example": 5,
                        },
                        "note": {"type": "string", "nullable": True},
                        "card": {"$ref": "#/components/schemas/Card", "nullable": True},
                    },
                },
                "Card": {"type": "object", "properties": {"last4": {"type": "string"}}},
            }
        },
    }


def shown() -> dict[str, Any]:
    return dict(json.loads(run_cli(["contract", "show", "-o", "json"]).stdout))


def test_openapi_30_schemas_are_rewritten_in_31_form() -> None:
    assert schema_to_31({"type": "string", "nullable": True, "example": "x"}) == {
        "type": ["string", "null"],
        "examples": ["x"],
    }
    assert schema_to_31({"type": "integer", "minimum": 0, "exclusiveMinimum": True}) == {
        "type": "integer",
        "exclusiveMinimum": 0,
    }
    assert schema_to_31({"maximum": 9, "exclusiveMaximum": False}) == {"maximum": 9}
    assert schema_to_31({"$ref": "#/x", "nullable": True}) == {
        "anyOf": [{"$ref": "#/x"}, {"type": "null"}]
    }
    converted = to_31(openapi_30())
    assert converted["openapi"] == "3.1.0"
    note = converted["components"]["schemas"]["Pay"]["properties"]["note"]
    assert note == {"type": ["string", "null"]}


def test_the_callers_document_is_left_as_it_was_unless_handed_over() -> None:
    original = openapi_30()
    kept = json.loads(json.dumps(original))
    converted = to_31(original)
    assert original == kept  # the import stores and diffs the document as given
    # A document parsed only to be read as 3.1 is rewritten where it is, not copied first.
    handed_over = openapi_30()
    in_place = to_31(handed_over, owned=True)
    assert in_place == converted
    assert in_place["components"] is handed_over["components"]


def test_an_openapi_30_contract_is_imported_and_checked_as_31(
    import_contract: Importer, httpx_mock: HTTPXMock
) -> None:
    import_contract(openapi_30())
    assert shown()["openapi"] == "3.0.3"
    zero = run_cli(["payments", "create", "--field", "amount=0"], env=token_env())
    assert zero.exit_code == 2 and "amount" in zero.stderr  # exclusive bound, as 3.1
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/payments", json={})
    ok = ["payments", "create", "--field", "amount=1", "--data", '{"note": null}']
    assert run_cli(ok, env=token_env()).exit_code == 0
    assert json.loads(httpx_mock.get_requests()[0].content) == {"amount": 1, "note": None}


def test_yaml_and_openapi_32_contracts_are_imported(tmp_path: Path) -> None:
    import yaml

    document = aspnet()
    document["openapi"] = "3.2.0"
    path = tmp_path / "contract.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = run_cli(["contract", "import", str(path)])
    assert result.exit_code == 0, result.stderr
    assert shown()["openapi"] == "3.2.0"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "is not JSON or YAML"),
        (b"key: [unclosed", "is not JSON or YAML"),
        (b"{not json", "is not JSON"),
        (b'{"title": "no openapi here"}', "not an OpenAPI 3 document"),
        (b'{"swagger": "2.0", "info": {}, "paths": {}}', "Swagger 2.0 is not supported"),
    ],
)
def test_what_is_not_an_openapi_3_document_is_one_line_and_stores_nothing(
    import_contract: Importer, tmp_path: Path, content: bytes, message: str
) -> None:
    import_contract(aspnet())
    path = tmp_path / "bad"
    path.write_bytes(content)
    result = run_cli(["contract", "import", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert shown()["title"] == "LeadService.Api"  # the current contract is untouched


@pytest.mark.parametrize("problem", ["external-ref", "same-template"])
def test_an_operation_leadctl_cannot_use_is_left_out_named_and_the_rest_imported(
    import_contract: Importer, tmp_path: Path, problem: str
) -> None:
    import_contract(aspnet())
    document = aspnet()
    document["info"]["title"] = "LeadService.Api (next)"
    if problem == "external-ref":
        schema = {"$ref": "https://schemas.example.test/lead.json"}
        document["paths"]["/leads/{id}"]["get"]["responses"]["200"]["content"]["application/json"][
            "schema"
        ] = schema
        operation, expected = "GET /leads/{id}", "self-contained"
    else:
        document["paths"]["/leads/{leadId}"] = {
            "get": {
                "operationId": "Leads_Other",
                "parameters": [
                    {"name": "leadId", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "OK"}},
            }
        }
        operation, expected = "GET /leads/{leadId}", "the same METHOD and path template"
    result = run_cli(["contract", "import", str(write(tmp_path / "next.json", document))])
    assert result.exit_code == 0, result.stderr
    assert f"warning: left out {operation}: " in result.stderr and expected in result.stderr
    now = shown()
    assert now["title"] == "LeadService.Api (next)"
    assert [entry["operation"] for entry in now["leftOut"]] == [operation]
    assert expected in now["leftOut"][0]["reasons"][0]


# -- form bodies ----------------------------------------------------------------------------


def test_multipart_upload_sends_file_parts_and_fields(
    import_contract: Importer, httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    import_contract(aspnet())
    upload = tmp_path / "clip.wav"
    upload.write_bytes(b"RIFF-audio-bytes")
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/media", json={"id": "m1"})
    args = ["media", "upload", "--file", f"file=@{upload}", "--field", "title=Greeting"]
    result = run_cli(args, env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Content-Type"].startswith("multipart/form-data; boundary=")
    body = request.content
    assert b'name="file"; filename="clip.wav"' in body and b"RIFF-audio-bytes" in body
    assert b'name="title"' in body and b"Greeting" in body


def test_a_missing_file_is_exit_2_before_sending(
    import_contract: Importer, tmp_path: Path, httpx_mock: HTTPXMock
) -> None:
    import_contract(aspnet())
    args = ["media", "upload", "--file", f"file=@{tmp_path / 'nope.wav'}", "--field", "title=T"]
    result = run_cli(args, env=token_env())
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "nothing was sent" in result.stderr
    missing = run_cli(["media", "upload", "--field", "title=T"], env=token_env())
    assert missing.exit_code == 2 and "--file file=@PATH" in missing.stderr
    assert httpx_mock.get_requests() == []


def test_form_urlencoded_body(import_contract: Importer, httpx_mock: HTTPXMock) -> None:
    import_contract(aspnet())
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/optouts", json={})
    args = ["opt-outs", "create", "--field", "phone=+15125550143", "--field", "reason=asked"]
    result = run_cli(args, env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert request.content == b"phone=%2B15125550143&reason=asked"


def test_a_json_body_goes_with_the_media_type_the_contract_names(
    import_contract: Importer, httpx_mock: HTTPXMock
) -> None:
    document = aspnet()
    content = document["paths"]["/sms"]["post"]["requestBody"]["content"]
    content["application/merge-patch+json"] = content.pop("application/json")
    import_contract(document)
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/sms", json={})
    result = run_cli(["sms", "send", "--field", "to=+15125550143"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].headers["Content-Type"] == "application/merge-patch+json"
    # ASP.NET lists application/json-patch+json first: application/json is still chosen.
    document["paths"]["/sms"]["post"]["requestBody"]["content"] = {
        "application/json-patch+json": content["application/merge-patch+json"],
        "application/json": content["application/merge-patch+json"],
    }
    import_contract(document)
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/sms", json={})
    assert run_cli(["sms", "send", "--field", "to=+15125550143"], env=token_env()).exit_code == 0
    assert httpx_mock.get_requests()[1].headers["Content-Type"] == "application/json"
    # A range (application/*+json, as ASP.NET lists it) is sent as application/json.
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/tags/all", json={"items": []})
    assert run_cli(["tags", "list-all", "-o", "json"], env=token_env()).exit_code == 0
    assert httpx_mock.get_requests()[2].headers["Content-Type"] == "application/json"

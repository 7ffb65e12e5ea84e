"""The fixture contracts are what issue 11 asks of them, valid, and in step with build.py."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV30SpecValidator, OpenAPIV31SpecValidator

from tests.support.bundled_contract import load_contract as load_bundled
from tests.support.contract_mock_fixtures import CONTRACTS, load_contract

REFERENCE_OPERATIONS = (
    ("PUT", "/users/compliance"),
    ("PUT", "/sources/{id}"),
    ("PUT", "/lead-status-changes/{id}"),
    ("DELETE", "/lead-status-changes/{id}"),
    ("GET", "/phone-numbers/{phoneNumber}/status"),
    ("GET", "/automations/{id}/runs"),
    ("POST", "/sources/{id}/credentials/rotate"),
    ("GET", "/lead-statuses"),
    ("POST", "/a2a"),
    ("POST", "/notifications/announcements"),
    ("POST", "/leads"),
    ("POST", "/leads/all/my"),
)


def build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fixture_build", CONTRACTS / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, spec in item.items():
            yield method.upper(), path, spec


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


@pytest.mark.parametrize("version", ["3.1", "3.0"])
def test_the_committed_files_are_what_build_py_writes(version: str) -> None:
    build = build_module()
    assert (CONTRACTS / f"aspnet-{version}.json").read_text(encoding="utf-8") == build.text_of(
        version
    )


@pytest.mark.parametrize("version", ["3.1", "3.0"])
def test_the_committed_trait_files_are_what_the_traits_package_writes(version: str) -> None:
    from tests.fixtures.contracts import traits

    committed = (CONTRACTS / f"traits-{version}.json").read_text(encoding="utf-8")
    assert committed == traits.text_of(version), (
        "run: uv run python -m tests.fixtures.contracts.traits"
    )


@pytest.mark.parametrize("name", ["aspnet", "traits"])
@pytest.mark.parametrize(
    ("version", "validator"), [("3.1", OpenAPIV31SpecValidator), ("3.0", OpenAPIV30SpecValidator)]
)
def test_both_variants_are_valid_openapi(version: str, validator: Any, name: str) -> None:
    document = load_contract(version, name)
    assert document["openapi"].startswith(version)
    # The one defect of the earlier 3.0 contract (traits/path_parameter_not_in_template.py).
    defects = (
        [
            "Path parameter 'organizationId' for 'put' operation in '/lead-statuses/order' was not "
            "resolved"
        ]
        if (name, version) == ("traits", "3.0")
        else []
    )
    assert [e.message for e in validator(document).iter_errors()] == defects


def test_size_tags_and_aspnet_operation_ids() -> None:
    document = load_contract("3.1")
    found = list(operations(document))
    tags = {spec["tags"][0] for _m, _p, spec in found}

    assert len(found) >= 100
    assert len(tags) >= 25
    assert all(re.fullmatch(r"[A-Z][A-Za-z]+_[A-Z][A-Za-z]+", s["operationId"]) for *_, s in found)
    ids = {spec["operationId"] for *_, spec in found}
    for wanted in (
        "Leads_GetAllForCurrentUser",
        "Leads_GetForCurrentUser",
        "Tags_GetAllForCurrentOrganization",
        "Calls_HangupCall",
        "Sources_Update",
        "Suppressions_Check",
        "Sms_Send",
    ):
        assert wanted in ids


def test_the_reference_operations_are_there_under_other_ids() -> None:
    fixture = {(m, p): s["operationId"] for m, p, s in operations(load_contract("3.1"))}
    bundled = {(m, p): s["operationId"] for m, p, s in operations(load_bundled())}

    for key in REFERENCE_OPERATIONS:
        assert key in fixture, key
        assert fixture[key] != bundled[key]


def test_the_shapes_real_aspnet_contracts_have() -> None:
    v31, v30 = load_contract("3.1"), load_contract("3.0")
    found = list(operations(v31))
    media = {m for *_, s in found for m in s.get("requestBody", {}).get("content", {})}
    securities = {json.dumps(s["security"]) for *_, s in found}
    schemas = v31["components"]["schemas"]

    assert {"application/*+json", "multipart/form-data", "application/x-www-form-urlencoded"} <= (
        media
    )
    assert {"[]", '[{"Bearer": []}]', '[{"Bearer": []}, {"SourceKey": []}]'} <= securities
    assert v31["components"]["securitySchemes"]["SourceKey"]["in"] == "header"
    collection_reads = [
        s
        for m, _p, s in found
        if m == "POST"
        and "RequestDataOptions" in json.dumps(s.get("requestBody", {}).get("content", {}))
    ]
    assert len(collection_reads) >= 15
    assert "idempotencyKey" in schemas["SmsSendRequest"]["properties"]
    assert any(n.get("allOf") and len(n["allOf"]) == 1 for n in nodes(schemas))
    assert any(isinstance(n.get("type"), list) and n["type"][0] == "null" for n in nodes(v31))
    assert any(n.get("nullable") is True and "allOf" in n for n in nodes(v30))
    assert any(n.get("exclusiveMinimum") is True for n in nodes(v30))
    assert any("example" in n for n in nodes(v30["components"]))
    assert not any(n.get("nullable") for n in nodes(v31))
    etags = [s for m, _p, s in found if m == "GET" and "ETag" in json.dumps(s["responses"])]
    assert len(etags) >= 3


def test_intake_is_nested_and_puts_replace_whole_resources() -> None:
    schemas = load_contract("3.1")["components"]["schemas"]

    assert set(schemas["LeadIntakeRequest"]["required"]) == {
        "metadata", "contact", "customer", "tagIds", "tagNames"
    }  # fmt: skip
    assert schemas["LeadIntakeMetadata"]["required"] == ["consentCertificateUrl"]
    assert schemas["LeadIntakePhone"]["properties"]["number"]["pattern"].startswith("^\\+")
    assert set(schemas["SourceUpdateRequest"]["required"]) == {
        "name", "allowedStates", "allowedProducts", "defaultTagIds", "defaultTagNames"
    }  # fmt: skip
    assert set(schemas["LeadStatusChangeUpdateRequest"]["required"]) == {"type", "outcome"}
    assert schemas["SourceDto"]["properties"]["id"]["readOnly"] is True

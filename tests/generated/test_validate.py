"""Importing what is sound of an OpenAPI contract (issue 21.11): each problem is traced to the
operations it touches, which are left out with the reason; only a document that is not
OpenAPI 3, or has no sound operation, is refused."""

from __future__ import annotations

import time
from typing import Any

import pytest

from leadctl.contract.loading import new_budget
from leadctl.contract.validate import Checked, ContractInvalid, check_contract
from leadctl_sandbox.published import published_contract
from tests.generated.contracts import widgets


def checked(document: Any) -> Checked:
    return check_contract(document, what="x.json", budget=new_budget("x.json", time.monotonic))


def left_out(document: Any) -> dict[str, list[str]]:
    return {entry["operation"]: entry["reasons"] for entry in checked(document).left_out}


def test_the_sandbox_contract_and_the_test_contract_are_whole() -> None:
    for document in (published_contract(), widgets()):
        found = checked(document)
        assert (found.left_out, found.ignored) == ([], [])
        assert found.document["paths"] == document["paths"]


def broken(change: str) -> dict[str, Any]:
    document = widgets()
    paths = document["paths"]
    if change == "duplicate-id":
        paths["/widgets"]["post"]["operationId"] = "listWidgets"
    elif change == "undeclared-path-parameter":
        paths["/gadgets/{gadgetId}"] = {"get": {"responses": {"200": {"description": "ok"}}}}
    elif change == "parameter-not-in-template":
        paths["/widgets"]["post"]["parameters"] = [
            {"name": "widgetId", "in": "path", "required": True, "schema": {"type": "string"}}
        ]
    elif change == "ref-to-nowhere":
        paths["/widgets"]["post"]["requestBody"]["content"]["application/json"]["schema"] = {
            "$ref": "#/components/schemas/Nope"
        }
    elif change == "external-ref":
        paths["/widgets"]["post"]["requestBody"]["content"]["application/json"]["schema"] = {
            "$ref": "https://example.test/w.json"
        }
    elif change == "same-template":
        paths["/widgets/{id}"] = {
            "get": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "ok"}},
            }
        }
    elif change == "bad-kinds":
        paths["/widgets"]["post"]["x-leadctl-credential-kinds"] = ["admin"]
    elif change == "bad-retry-mark":
        paths["/widgets"]["post"]["x-leadctl-retry-safe"] = "yes"
    elif change == "bad-poll":
        paths["/widgets/{widgetId}/build"]["post"]["x-leadctl-pending"]["poll"] = "nope"
    elif change == "bad-download":
        paths["/widgets/{widgetId}/build"]["post"]["x-leadctl-pending"]["download"] = "gone"
    elif change == "parameter-nowhere":
        paths["/widgets"]["post"]["parameters"] = [
            {"name": "x", "in": "nowhere", "schema": {"type": "string"}}
        ]
    return document


@pytest.mark.parametrize(
    ("change", "operation", "expected"),
    [
        ("duplicate-id", "POST /widgets", "listWidgets"),
        ("undeclared-path-parameter", "GET /gadgets/{gadgetId}", "{gadgetId}"),
        ("parameter-not-in-template", "POST /widgets", "'widgetId' is not in the path template"),
        ("ref-to-nowhere", "POST /widgets", "/components/schemas/Nope"),
        ("external-ref", "POST /widgets", "local $refs"),
        ("same-template", "GET /widgets/{id}", "the same METHOD and path template"),
        ("bad-kinds", "POST /widgets", "x-leadctl-credential-kinds"),
        ("bad-retry-mark", "POST /widgets", "x-leadctl-retry-safe"),
        ("bad-poll", "POST /widgets/{widgetId}/build", "'nope' is not an operationId"),
        ("bad-download", "POST /widgets/{widgetId}/build", "download 'gone' is not an"),
        ("parameter-nowhere", "POST /widgets", "nowhere"),
    ],
)
def test_an_operation_with_a_defect_is_left_out_with_its_reason_and_the_rest_kept(
    change: str, operation: str, expected: str
) -> None:
    document = broken(change)
    found = checked(document)

    assert [entry["operation"] for entry in found.left_out] == [operation]
    reasons = found.left_out[0]["reasons"]
    assert any(expected in reason for reason in reasons), reasons
    assert all(len(reason) <= 240 for reason in reasons)
    method, path = operation.split(" ")
    assert method.lower() not in found.document["paths"].get(path, {})
    kept = sum(
        len([m for m in item if m != "parameters"]) for item in found.document["paths"].values()
    )
    total = sum(len([m for m in item if m != "parameters"]) for item in document["paths"].values())
    assert kept == total - 1


def test_a_broken_component_leaves_out_every_operation_that_uses_it_even_through_others() -> None:
    document = widgets()
    schemas = document["components"]["schemas"]
    # Widget is broken; WidgetCollection uses it: every operation answering either goes.
    schemas["Widget"]["properties"]["owner"] = {"$ref": "#/components/schemas/Owner"}
    users = {entry["operation"] for entry in checked(document).left_out}

    assert "GET /widgets/{widgetId}" in users  # answers a Widget
    assert "POST /widgets/all" in users  # answers a WidgetCollection of Widgets
    assert "POST /intake/ping" not in users
    reasons = left_out(document)["GET /widgets/{widgetId}"]
    assert any("#/components/schemas/Widget" in r and "Owner" in r for r in reasons), reasons


def test_problems_outside_any_operation_are_listed_and_change_nothing() -> None:
    document = widgets()
    del document["info"]["title"]
    found = checked(document)

    assert found.left_out == []
    assert any("info" in problem and "title" in problem for problem in found.ignored)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        (["openapi"], "not a JSON object"),
        ({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": []}, "paths"),
    ],
)
def test_what_has_no_operations_at_all_is_refused(document: Any, message: str) -> None:
    with pytest.raises(ContractInvalid) as caught:
        checked(document)
    assert caught.value.exit_code == 2
    assert any(message in problem for problem in caught.value.problems)


def test_a_document_whose_every_operation_is_broken_is_refused_listing_why() -> None:
    document = widgets()
    for item in document["paths"].values():
        for method, spec in item.items():
            if method != "parameters":
                spec["x-leadctl-retry-safe"] = "maybe"
    with pytest.raises(ContractInvalid) as caught:
        checked(document)
    assert caught.value.exit_code == 2
    assert "GET /widgets: x-leadctl-retry-safe must be true or false" in caught.value.problems

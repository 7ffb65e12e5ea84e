"""Importing only what is a valid OpenAPI 3.1 contract leadctl can use."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.contract.validate import ContractInvalid, check_contract, problems_of
from leadctl_sandbox.published import published_contract
from tests.generated.contracts import widgets


def test_the_sandbox_contract_and_the_test_contract_are_valid() -> None:
    assert list(problems_of(published_contract())) == []
    assert list(problems_of(widgets())) == []


def broken(change: str) -> dict[str, Any]:
    document = widgets()
    paths = document["paths"]
    if change == "duplicate-id":
        paths["/widgets"]["post"]["operationId"] = "listWidgets"
    elif change == "undeclared-path-parameter":
        paths["/gadgets/{gadgetId}"] = {"get": {"responses": {"200": {"description": "ok"}}}}
    elif change == "ref-to-nowhere":
        paths["/widgets"]["post"]["requestBody"]["content"]["application/json"]["schema"] = {
            "$ref": "#/components/schemas/Nope"
        }
    elif change == "external-ref":
        document["components"]["schemas"]["Widget"] = {"$ref": "https://example.test/w.json"}
    elif change == "bad-kinds":
        paths["/widgets"]["get"]["x-leadctl-credential-kinds"] = ["admin"]
    elif change == "bad-retry-mark":
        paths["/widgets"]["get"]["x-leadctl-retry-safe"] = "yes"
    elif change == "bad-poll":
        paths["/widgets/{widgetId}/build"]["post"]["x-leadctl-pending"]["poll"] = "nope"
    elif change == "not-an-object":
        return ["openapi"]  # type: ignore[return-value]
    return document


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ("duplicate-id", "listWidgets"),
        ("undeclared-path-parameter", "gadgetId"),
        ("ref-to-nowhere", "/components/schemas/Nope"),
        ("external-ref", "local $refs"),
        ("bad-kinds", "x-leadctl-credential-kinds"),
        ("bad-retry-mark", "x-leadctl-retry-safe"),
        ("bad-poll", "'nope' is not an operationId"),
        ("not-an-object", "not a JSON object"),
    ],
)
def test_each_problem_is_reported(change: str, expected: str) -> None:
    with pytest.raises(ContractInvalid) as caught:
        check_contract(broken(change), what="x.json")
    assert caught.value.exit_code == 2
    assert any(expected in problem for problem in caught.value.problems), caught.value.problems
    assert all(len(problem) <= 240 for problem in caught.value.problems)

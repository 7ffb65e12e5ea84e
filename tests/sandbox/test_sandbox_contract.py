"""The bundled contract: a valid OpenAPI 3.1 document that says what the reference says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from leadctl_sandbox.contract import iter_operations
from tests.support.bundled_contract import load_contract

# (method, path) -> (operationId, tag, retry-safe, credential kinds, statuses the reference lists)
STAFF = {"org", "user"}
EXPECTED = {
    ("PUT", "/users/compliance"): (
        "updateUserCompliance",
        "Users",
        True,
        STAFF,
        {200, 400, 401, 429},
    ),
    ("PUT", "/sources/{id}"): (
        "updateSource",
        "Sources",
        True,
        STAFF,
        {200, 400, 401, 403, 404, 429},
    ),
    ("PUT", "/lead-status-changes/{id}"): (
        "updateLeadStatusChange",
        "LeadStatusChanges",
        True,
        STAFF,
        {200, 400, 401, 403, 404, 429},
    ),
    ("DELETE", "/lead-status-changes/{id}"): (
        "deleteLeadStatusChange",
        "LeadStatusChanges",
        True,
        STAFF,
        {401, 403, 404, 429},
    ),
    ("GET", "/phone-numbers/{phoneNumber}/status"): (
        "getPhoneNumberStatus",
        "PhoneNumbers",
        True,
        STAFF,
        {200, 400, 401, 403, 429, 500},
    ),
    ("GET", "/automations/{id}/runs"): (
        "listAutomationRuns",
        "Automations",
        True,
        STAFF,
        {200, 401, 403, 429},
    ),
    ("POST", "/sources/{id}/credentials/rotate"): (
        "rotateSourceCredentials",
        "Sources",
        False,
        STAFF,
        {200, 401, 403, 404, 429},
    ),
    ("GET", "/lead-statuses"): (
        "listLeadStatuses",
        "LeadStatuses",
        True,
        STAFF,
        {200, 401, 403, 429},
    ),
    ("POST", "/a2a"): ("a2a", "Agent", False, STAFF, {200, 401, 403, 429}),
    ("POST", "/notifications/announcements"): (
        "listAnnouncements",
        "Notifications",
        True,
        STAFF,
        {200},
    ),
    ("POST", "/leads"): ("createLead", "Leads", False, STAFF | {"source"}, set()),
    ("POST", "/leads/all/my"): ("listMyLeads", "Leads", True, STAFF, set()),
}
RESOURCE_SCHEMAS = (
    "User", "UserCompliance", "UserIdentity", "IdNamePair", "UserNotificationPreferences",
    "OrganizationBillingState", "Source", "LeadStatusChange", "LeadStatus", "PhoneNumberStatus",
    "AutomationRunHistory", "AutomationRun", "AutomationRunAction", "AutomationRunEvent",
    "Announcement", "RequestDataOptions", "CollectionResponse", "Problem", "Lead",
)  # fmt: skip
CATEGORIES = ["Open", "Qualified", "Converted", "Lost", "Invalid", "Duplicate"]


@pytest.fixture(scope="module")
def contract() -> dict[str, Any]:
    return load_contract()


def _schema(contract: dict[str, Any], name: str) -> dict[str, Any]:
    schema: dict[str, Any] = contract["components"]["schemas"][name]
    return schema


def _walk(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{where}/{index}")


def test_contract_is_a_valid_openapi_3_1_document(contract: dict[str, Any]) -> None:
    errors = [error.message for error in OpenAPIV31SpecValidator(contract).iter_errors()]
    assert errors == []
    assert contract["openapi"].startswith("3.1")
    assert contract["info"]["version"] == "v1"


def test_bearer_is_declared_per_operation_and_never_by_default(contract: dict[str, Any]) -> None:
    assert "security" not in contract
    schemes = contract["components"]["securitySchemes"]
    assert schemes == {"bearerAuth": {**schemes["bearerAuth"], "type": "http", "scheme": "bearer"}}
    for operation in iter_operations(contract):
        assert operation.spec["security"] == [{"bearerAuth": []}], operation.path


def test_every_operation_of_the_reference_with_id_tag_retry_safety_and_kinds(
    contract: dict[str, Any],
) -> None:
    found = {(op.method, op.path): op for op in iter_operations(contract)}
    assert set(found) == set(EXPECTED)
    for key, (operation_id, tag, retry_safe, kinds, _statuses) in EXPECTED.items():
        operation = found[key]
        assert operation.operation_id == operation_id
        assert operation.spec["tags"] == [tag]
        assert operation.spec["x-leadctl-retry-safe"] is retry_safe, key
        assert set(operation.spec["x-leadctl-credential-kinds"]) == kinds, key
    ids = [op.operation_id for op in found.values()]
    assert len(ids) == len(set(ids))


def test_listed_statuses_are_declared_and_additions_are_marked_assumed(
    contract: dict[str, Any],
) -> None:
    for operation in iter_operations(contract):
        listed = EXPECTED[(operation.method, operation.path)][4]
        responses = operation.spec["responses"]
        declared = {int(status) for status in responses}
        assert listed <= declared, operation.path
        for status in declared - listed:
            assert responses[str(status)].get("x-leadctl-assumed") is True, (operation.path, status)


def test_error_responses_are_problem_json_and_429_carries_retry_after(
    contract: dict[str, Any],
) -> None:
    header = contract["components"]["headers"]["RetryAfter"]
    assert header["required"] is True
    assert header["schema"] == {"type": "integer", "format": "int32", "minimum": 0}
    for operation in iter_operations(contract):
        for status, response in operation.spec["responses"].items():
            if int(status) < 400:
                continue
            assert list(response["content"]) == ["application/problem+json"]
            assert response["content"]["application/problem+json"]["schema"] == {
                "$ref": "#/components/schemas/Problem"
            }
            if status == "429":
                assert response["headers"]["Retry-After"] == {
                    "$ref": "#/components/headers/RetryAfter"
                }


def test_problem_schema_has_the_reference_fields(contract: dict[str, Any]) -> None:
    problem = _schema(contract, "Problem")["properties"]
    assert set(problem) == {"type", "title", "status", "detail", "instance", "errors", "traceId"}
    assert problem["errors"]["additionalProperties"] == {
        "type": "array",
        "items": {"type": "string"},
    }
    for nullable in ("type", "title", "status", "detail", "instance"):
        assert "null" in problem[nullable]["type"]


def test_resource_schemas_with_nullability_and_enums(contract: dict[str, Any]) -> None:
    schemas = contract["components"]["schemas"]
    for name in RESOURCE_SCHEMAS:
        assert name in schemas, name
    user = _schema(contract, "User")["properties"]
    assert user["email"] == {"type": "string", "format": "email"}
    assert user["firstName"]["type"] == ["string", "null"]
    assert user["modifiedAt"]["type"] == ["string", "null"]
    assert user["createdAt"] == {"type": "string", "format": "date-time"}
    assert user["billingPlan"]["enum"] == ["Annual", "Monthly", None]
    assert user["subscriptionStatus"]["enum"] == ["Pending", "Active", "Overdue", "Canceled", None]
    assert set(_schema(contract, "UserIdentity")["required"]) == {
        "issuer",
        "issuerAssignedId",
        "signInType",
    }
    assert set(_schema(contract, "IdNamePair")["required"]) == {"id", "name"}
    change = _schema(contract, "LeadStatusChange")["properties"]
    assert change["category"]["enum"] == CATEGORIES
    assert change["changeSource"]["enum"] == ["User", "AI", "Automation", "System", "API"]
    assert _schema(contract, "LeadStatus")["properties"]["category"]["enum"] == CATEGORIES
    options = _schema(contract, "RequestDataOptions")["properties"]
    assert set(options) == {
        "pageSize", "continuationToken", "orderBy", "includeCount", "search", "searchFields",
        "filters", "rangeFilters",
    }  # fmt: skip
    collection = _schema(contract, "CollectionResponse")["properties"]
    assert set(collection) == {"items", "pageSize", "totalCount", "continuationToken"}
    capacity = _schema(contract, "OutboundCapacity")["properties"]
    for channel in ("sms", "voice"):
        for period in ("ThisMinute", "Today", "ThisHour"):
            for what in ("Remaining", "Used", "Limit"):
                assert capacity[f"{channel}{what}{period}"] == {"type": "integer"}


def test_source_update_accepts_the_older_form_with_name_required_and_at_most_255(
    contract: dict[str, Any],
) -> None:
    update = _schema(contract, "SourceUpdate")
    props = update["properties"]
    for current in (
        "allowedStates", "allowedProducts", "defaultTagIds", "defaultTagNames", "name",
        "description", "requiresConsentCertificate",
    ):  # fmt: skip
        assert current in props
    for older in ("id", "enabled", "apiKey", "businessId"):
        assert "null" in props[older]["type"]
        assert update["dependentRequired"][older] == ["name"]
    assert props["name"]["maxLength"] == 255


def test_every_assumption_is_marked_and_explained(contract: dict[str, Any]) -> None:
    marked = {where for where, node in _walk(contract) if node.get("x-leadctl-assumed") is True}
    for where, node in _walk(contract):
        if node.get("x-leadctl-assumed") is True:
            assert "Assumed" in node.get("description", ""), where
    must_be_marked = [
        "#/components/schemas/Lead",
        "#/components/schemas/LeadCreate",
        "#/components/schemas/JsonRpcRequest",
        "#/components/schemas/RequestDataOptions/properties/pageSize",
        "#/components/schemas/OrderBy/properties/direction",
        "#/paths/~1lead-status-changes~1{id}/delete/responses/204",
        "#/components/schemas/Announcement/properties/isRead",
    ]
    for where in must_be_marked:
        assert where.replace("~1", "/") in {m.replace("~1", "/") for m in marked}, where
    phone = contract["paths"]["/phone-numbers/{phoneNumber}/status"]["get"]["parameters"]
    assert {p["name"] for p in phone if p["in"] == "query"} == {
        "windowDays",
        "startDate",
        "endDate",
    }
    assert all(p["x-leadctl-assumed"] is True for p in phone)

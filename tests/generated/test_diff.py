"""`contract diff`'s comparison: added, removed and changed operations."""

from __future__ import annotations

from leadctl.contract.diff import diff_contracts
from tests.generated.contracts import widgets


def summary(old: dict, new: dict) -> dict[str, tuple[str, list[str]]]:  # type: ignore[type-arg]
    return {c.operation: (c.change, c.details) for c in diff_contracts(old, new)}


def test_identical_contracts_have_no_changes() -> None:
    assert diff_contracts(widgets(), widgets()) == []


def test_added_removed_and_changed() -> None:
    old, new = widgets(), widgets()
    del new["paths"]["/widgets"]["get"]
    new["paths"]["/gizmos"] = {
        "get": {"operationId": "listGizmos", "responses": {"200": {"description": "ok"}}}
    }
    create = new["components"]["schemas"]["WidgetCreate"]
    create["properties"]["color"] = {"type": "string"}
    del create["properties"]["count"]
    create["properties"]["zip"]["maxLength"] = 10
    create["required"] = ["name", "size"]
    new["paths"]["/widgets/{widgetId}"]["get"]["parameters"].append(
        {"name": "expand", "in": "query", "required": True, "schema": {"type": "boolean"}}
    )
    new["paths"]["/widgets/{widgetId}"]["delete"]["x-leadctl-retry-safe"] = False
    new["paths"]["/widgets/{widgetId}"]["delete"]["responses"]["404"] = {"description": "gone"}
    found = summary(old, new)
    assert found["listWidgets"] == ("removed", [])
    assert found["listGizmos"] == ("added", [])
    assert found["createWidget"] == (
        "changed",
        [
            "body field removed: count",
            "body field changed: zip",
            "body field added: color",
            "body field now required: size",
        ],
    )
    assert found["getWidget"] == ("changed", ["parameter added: expand (query) (required)"])
    assert found["deleteWidget"] == (
        "changed",
        ["response added: 404", "x-leadctl-retry-safe: unset -> false"],
    )
    order = [c.change for c in diff_contracts(old, new)]
    assert order == sorted(order, key=["removed", "changed", "added"].index)


def test_documentation_and_component_names_are_not_changes() -> None:
    old, new = widgets(), widgets()
    schemas = new["components"]["schemas"]
    schemas["NewWidget"] = schemas.pop("WidgetCreate")
    schemas["NewWidget"]["properties"]["zip"]["description"] = "ZIP or postal code."
    body = new["paths"]["/widgets"]["post"]["requestBody"]["content"]["application/json"]
    body["schema"] = {"$ref": "#/components/schemas/NewWidget"}
    assert diff_contracts(old, new) == []


def test_a_moved_operation_and_a_recursive_schema() -> None:
    old, new = widgets(), widgets()
    for document in (old, new):
        document["components"]["schemas"]["Widget"]["properties"]["parent"] = {
            "$ref": "#/components/schemas/Widget"
        }
    new["paths"]["/v2/widgets"] = new["paths"].pop("/widgets")
    found = summary(old, new)
    assert found["listWidgets"] == ("changed", ["moved from GET /widgets"])
    assert found["createWidget"] == ("changed", ["moved from POST /widgets"])


def test_operations_are_matched_by_method_and_path_template_not_operation_id() -> None:
    old, new = widgets(), widgets()
    new["paths"]["/widgets"]["get"]["operationId"] = "Widgets_GetAllForCurrentUser"
    found = summary(old, new)
    assert found["Widgets_GetAllForCurrentUser"] == ("changed", ["operationId was listWidgets"])
    assert "listWidgets" not in found


def test_where_the_credential_goes_is_a_change() -> None:
    old, new = widgets(), widgets()
    new["components"]["securitySchemes"]["keyAuth"] = {
        "type": "apiKey",
        "in": "query",
        "name": "api_key",
    }
    new["paths"]["/widgets"]["get"]["security"] = [{"keyAuth": []}]
    new["paths"]["/widgets/{widgetId}"]["get"]["security"] = []
    found = summary(old, new)
    assert found["listWidgets"] == (
        "changed",
        [
            "credentials: org,user in header Authorization (bearer) -> "
            "org,user in query api_key (key)"
        ],
    )
    assert found["getWidget"] == (
        "changed",
        ["credentials: org,user in header Authorization (bearer) -> none"],
    )

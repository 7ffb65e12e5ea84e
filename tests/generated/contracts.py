"""Small OpenAPI 3.1 documents for the generated-command tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

PROBLEM = {
    "description": "A problem.",
    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
}


def _op(operation_id: str | None, tag: str, **fields: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"tags": [tag], "security": [{"bearerAuth": []}]}
    if operation_id:
        spec["operationId"] = operation_id
    spec.setdefault("responses", {"400": PROBLEM})
    spec.update(fields)
    spec["responses"] = {**fields.get("responses", {}), "400": PROBLEM}
    return spec


def _json(schema: dict[str, Any], status: str = "200") -> dict[str, Any]:
    return {status: {"description": "OK.", "content": {"application/json": {"schema": schema}}}}


WIDGET = {"$ref": "#/components/schemas/Widget"}

WIDGETS: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Widgets", "version": "2.0"},
    "tags": [{"name": "Widgets", "description": "Widgets of the organization. More text."}],
    "paths": {
        "/widgets": {
            "get": _op(
                "listWidgets",
                "Widgets",
                summary="List widgets",
                parameters=[
                    {
                        "name": "state",
                        "in": "query",
                        "required": True,
                        "schema": {"type": "string", "enum": ["open", "closed"]},
                    },
                    {
                        "name": "maxItems",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 10},
                    },
                    {"name": "archived", "in": "query", "schema": {"type": "boolean"}},
                    {
                        "name": "include",
                        "in": "query",
                        "schema": {
                            "type": "array",
                            "items": {"type": "string", "enum": ["a", "b"]},
                        },
                    },
                ],
                responses=_json({"type": "array", "items": WIDGET}),
            ),
            "post": _op(
                "createWidget",
                "Widgets",
                summary="Create a widget",
                requestBody={
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/WidgetCreate"}
                        }
                    },
                },
                responses=_json(WIDGET, "201"),
            ),
        },
        "/widgets/all": {
            "post": _op(
                "searchWidgets",
                "Widgets",
                summary="Search widgets",
                requestBody={
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/RequestDataOptions"}
                        }
                    },
                },
                responses=_json({"$ref": "#/components/schemas/WidgetCollection"}),
            )
        },
        "/widgets/{widgetId}": {
            "parameters": [
                {"name": "widgetId", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "get": _op(
                "getWidget",
                "Widgets",
                summary="Read a widget",
                parameters=[
                    {"name": "X-Request-Source", "in": "header", "schema": {"type": "string"}}
                ],
                responses=_json(WIDGET),
            ),
            "delete": _op(
                "deleteWidget",
                "Widgets",
                summary="Delete a widget",
                responses={"204": {"description": "Deleted."}},
            ),
        },
        "/widgets/{widgetId}/refresh": {
            "post": _op(
                None,
                "Widgets",
                parameters=[
                    {
                        "name": "widgetId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                responses=_json(WIDGET),
            )
        },
        "/widgets/{widgetId}/build": {
            "post": _op(
                "buildWidget",
                "Widgets",
                summary="Build a widget",
                parameters=[
                    {
                        "name": "widgetId",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                responses=_json(WIDGET, "202"),
                **{
                    "x-leadctl-pending": {
                        "field": "state",
                        "pending": ["building"],
                        "failed": ["broken"],
                        "poll": "getWidget",
                        "reasonField": "error",
                    }
                },
            )
        },
        "/leads/everything": {
            "get": _op(
                "listLeads",
                "Leads",
                summary="Every lead",
                responses=_json({"type": "array", "items": {"type": "object"}}),
            )
        },
        "/phone-numbers/search": {
            "get": _op(
                "searchPhoneNumbers",
                "PhoneNumbers",
                summary="Search numbers to buy",
                responses=_json({"type": "array", "items": {"type": "object"}}),
            )
        },
        "/intake/ping": {
            "post": _op(
                "pingIntake",
                "Widgets",
                summary="Ping intake",
                responses=_json({"type": "object"}),
                **{"x-leadctl-credential-kinds": ["source"], "x-leadctl-retry-safe": True},
            )
        },
    },
    "components": {
        "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Problem": {"type": "object", "properties": {"detail": {"type": "string"}}},
            "Widget": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "state": {"type": "string"},
                    "error": {"type": ["string", "null"]},
                    "apiKey": {"type": "string"},
                    "createdAt": {"type": "string", "format": "date-time"},
                },
            },
            "WidgetCreate": {
                "type": "object",
                "properties": {
                    "name": {"type": "string", "minLength": 1},
                    "zip": {"type": "string", "description": "Postal code."},
                    "count": {"type": "integer", "minimum": 0},
                    "size": {"type": "string", "enum": ["S", "M", "L"]},
                },
                "required": ["name"],
                "additionalProperties": False,
            },
            "RequestDataOptions": {
                "type": "object",
                "properties": {
                    "pageSize": {"type": "integer", "minimum": 1, "maximum": 50},
                    "continuationToken": {"type": ["string", "null"]},
                    "search": {"type": ["string", "null"]},
                    "filters": {"type": ["array", "null"], "items": {"type": "object"}},
                },
            },
            "WidgetCollection": {
                "type": "object",
                "properties": {
                    "items": {"type": "array", "items": WIDGET},
                    "continuationToken": {"type": ["string", "null"]},
                },
            },
        },
    },
}


def widgets() -> dict[str, Any]:
    return copy.deepcopy(WIDGETS)


def write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document), encoding="utf-8")
    return path

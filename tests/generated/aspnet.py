"""A small contract in the style ASP.NET services publish: ``Tag_Action`` operationIds,
``ForCurrentUser`` qualifiers, allOf-wrapped $refs, per-operation security with a bearer
scheme, a source-key scheme and anonymous operations, POST collection reads, an
idempotency key, a multipart upload and a form post. The twelve reference operations the
curated commands call sit under their real paths with ids (and parameter names) unlike
the bundled contract's."""

from __future__ import annotations

import copy
from typing import Any

BEARER = [{"Bearer": []}]
SOURCE = [{"SourceKey": []}]


def _ref(name: str) -> dict[str, Any]:
    return {"allOf": [{"$ref": f"#/components/schemas/{name}"}]}


def _ok(schema: dict[str, Any] | None = None, status: str = "200") -> dict[str, Any]:
    if schema is None:
        return {status: {"description": "OK"}}
    return {
        status: {
            "description": "OK",
            "content": {"application/json": {"schema": schema}},
        }
    }


def _json_body(schema: dict[str, Any], media: str = "application/json") -> dict[str, Any]:
    return {"required": True, "content": {media: {"schema": schema}}}


def _op(op_id: str, tag: str, security: list[Any] | None = None, **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"operationId": op_id, "tags": [tag], "responses": _ok()}
    if security is not None:
        spec["security"] = security
    spec.update(extra)
    return spec


def _id(name: str = "id") -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}


QUERY = _json_body(_ref("RequestDataOptions"), "application/*+json")
PAGE = _ok(_ref("LeadPage"))

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "LeadService.Api", "version": "1.0"},
    "security": BEARER,
    "paths": {
        # The twelve reference operations (the curated commands'), ASP.NET ids.
        "/leads": {
            "post": _op(
                "Leads_CreateExternal",
                "Leads",
                [*BEARER, *SOURCE],
                requestBody=_json_body(_ref("LeadCreate")),
                responses=_ok(_ref("Lead"), "202"),
            )
        },
        "/leads/all/my": {
            "post": _op("Leads_GetAllForCurrentUser", "Leads", requestBody=QUERY, responses=PAGE)
        },
        "/sources/{sourceId}": {
            "put": _op(
                "Sources_SourcesUpdate",
                "Sources",
                parameters=[_id("sourceId")],
                requestBody=_json_body({"type": "object"}),
            ),
            "get": _op(
                "Sources_GetForCurrentUser",
                "Sources",
                parameters=[_id("sourceId")],
                responses=_ok(_ref("Source")),
            ),
        },
        "/sources/{sourceId}/credentials/rotate": {
            "post": _op("Sources_RotateCredentials", "Sources", parameters=[_id("sourceId")]),
        },
        "/lead-status-changes/{changeId}": {
            "put": _op(
                "LeadStatusChanges_Update",
                "LeadStatusChanges",
                parameters=[_id("changeId")],
                requestBody=_json_body({"type": "object"}),
            ),
            "delete": _op(
                "LeadStatusChanges_Delete", "LeadStatusChanges", parameters=[_id("changeId")]
            ),
        },
        "/phone-numbers/{number}/status": {
            "get": _op(
                "PhoneNumbers_GetStatus",
                "PhoneNumbers",
                parameters=[_id("number")],
                responses=_ok({"type": "object"}),
            ),
        },
        "/automations/{automationId}/runs": {
            "get": _op(
                "Automations_GetRuns",
                "Automations",
                parameters=[_id("automationId")],
                responses=_ok({"type": "array", "items": {"type": "object"}}),
            ),
        },
        "/lead-statuses": {
            "get": _op(
                "LeadStatuses_GetAllForCurrentOrganization",
                "LeadStatuses",
                responses=_ok({"type": "array", "items": {"type": "object"}}),
            ),
        },
        "/a2a": {"post": _op("Agent_Invoke", "Agent", requestBody=_json_body({"type": "object"}))},
        "/notifications/announcements": {
            "post": _op(
                "Notifications_GetAnnouncements", "Notifications", requestBody=QUERY, responses=PAGE
            ),
        },
        "/users/compliance": {
            "put": _op(
                "Users_UpdateCompliance", "Users", requestBody=_json_body({"type": "object"})
            ),
        },
        # Generated ones.
        "/leads/{id}": {
            "get": _op(
                "Leads_GetForCurrentUser", "Leads", parameters=[_id()], responses=_ok(_ref("Lead"))
            ),
        },
        "/sources": {
            "get": _op(
                "Sources_GetAllForCurrentUser",
                "Sources",
                responses=_ok({"type": "array", "items": _ref("Source")}),
            ),
        },
        "/tags": {
            "get": _op(
                "Tags_GetAllForCurrentOrganization",
                "Tags",
                responses=_ok({"type": "array", "items": {"type": "object"}}),
            ),
        },
        "/tags/all": {
            "post": _op("Tags_GetAllTagsPaged", "Tags", requestBody=QUERY, responses=PAGE),
        },
        "/automations": {
            "get": _op(
                "Automations_GetAll",
                "Automations",
                responses=_ok({"type": "array", "items": {"type": "object"}}),
            ),
        },
        "/phone-numbers/all": {
            "post": _op(
                "PhoneNumbers_GetAllPhoneNumbersForCurrentOrganization",
                "PhoneNumbers",
                requestBody=QUERY,
                responses=PAGE,
            ),
        },
        "/calls/{id}/hangup": {"post": _op("Calls_HangupCall", "Calls", parameters=[_id()])},
        "/sms": {
            "post": _op("Sms_SendSms", "Sms", requestBody=_json_body(_ref("SmsSend"))),
        },
        "/suppressions/check": {
            "post": _op(
                "Suppressions_CheckSuppression",
                "Suppressions",
                [],
                requestBody=_json_body(
                    {"type": "object", "properties": {"phone": {"type": "string"}}}
                ),
                responses=_ok({"type": "object"}),
            ),
        },
        "/intake/events": {
            "post": _op(
                "Intake_PostEvent",
                "Intake",
                SOURCE,
                requestBody=_json_body(
                    {"type": "object", "properties": {"kind": {"type": "string"}}}
                ),
            ),
        },
        "/payments": {
            "post": _op(
                "Payments_Create",
                "Payments",
                parameters=[
                    {
                        "name": "Idempotency-Key",
                        "in": "header",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                requestBody=_json_body(
                    {"type": "object", "properties": {"amount": {"type": "integer"}}}
                ),
            ),
        },
        "/media": {
            "post": _op(
                "Media_Upload",
                "Media",
                requestBody={
                    "required": True,
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "required": ["file", "title"],
                                "properties": {
                                    "file": {
                                        "type": "string",
                                        "contentMediaType": "application/octet-stream",
                                    },
                                    "title": {"type": "string"},
                                },
                            }
                        }
                    },
                },
            ),
        },
        "/optouts": {
            "post": _op(
                "OptOuts_Create",
                "OptOuts",
                requestBody={
                    "required": True,
                    "content": {
                        "application/x-www-form-urlencoded": {
                            "schema": {
                                "type": "object",
                                "required": ["phone"],
                                "properties": {
                                    "phone": {"type": "string"},
                                    "reason": {"type": "string"},
                                },
                            }
                        }
                    },
                },
            ),
        },
        "/widgets/rename": {
            "post": _op(
                "Widgets_Rename", "Widgets", **{"x-cli-name": "relabel", "x-cli-aliases": ["rn"]}
            ),
        },
    },
    "components": {
        "securitySchemes": {
            "Bearer": {
                "type": "http",
                "scheme": "bearer",
                "description": "JWT or organization key",
            },
            "SourceKey": {
                "type": "apiKey",
                "in": "header",
                "name": "X-Source-Key",
                "description": "A lead source's intake key (srckey_...).",
            },
        },
        "schemas": {
            "RequestDataOptions": {
                "type": "object",
                "properties": {
                    "continuationToken": {"type": ["null", "string"]},
                    "pageSize": {"type": ["null", "integer"]},
                    "search": {"type": ["null", "string"]},
                },
            },
            "Lead": {"type": "object", "properties": {"id": {"type": "string"}}},
            "LeadCreate": {"type": "object", "properties": {"phone": {"type": ["null", "string"]}}},
            "LeadPage": {
                "type": "object",
                "properties": {
                    "items": {"type": "array", "items": _ref("Lead")},
                    "continuationToken": {"type": ["null", "string"]},
                },
            },
            "Source": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "name": {"type": "string"}},
            },
            "SmsSend": {
                "type": "object",
                "required": ["to"],
                "properties": {
                    "to": {"type": "string"},
                    "idempotencyKey": {"type": ["null", "string"]},
                },
            },
        },
    },
}


def aspnet() -> dict[str, Any]:
    return copy.deepcopy(DOCUMENT)

"""A synthetic OpenAPI 3.0 contract of the shape of Cloudflare's public one, built the same
way every time (no network: the real one is not reachable from here).

    uv run python benchmarks/cloudflare_like.py OUT.json

What matters for `contract import` is its shape, as issue 32 measured it on the real one:
1,521 operations over ~66 products; ~3,700 components (per-product field schemas, resource
objects, the response envelopes built with ``allOf`` of ``$ref``s, shared parameters and
answers); ``default`` on many parameters (page, per_page, direction, match) and on many
properties, some through a ``$ref`` (``allOf: [{$ref}]`` beside the default), some null on
a ``nullable`` schema, some objects whose own properties have defaults; and a few defaults
that do not match their schema (a number for a string, "false" for a boolean, a value
outside the enum, over the maximum), some in components many operations use, some on one
operation's parameter. Every 4XX answer spells out its own envelope, as the real one does.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

OPERATIONS = 1521
SEED = 32
PRODUCTS = [
    "access",
    "addressing",
    "api-gateway",
    "argo",
    "bill-subs",
    "billing",
    "bot-management",
    "cache",
    "calls",
    "challenges",
    "cloudforce-one",
    "custom-hostnames",
    "custom-pages",
    "d1",
    "dlp",
    "dls",
    "dns-analytics",
    "dns-firewall",
    "dns-records",
    "dns-settings",
    "dnssec",
    "email",
    "email-security",
    "firewall",
    "healthchecks",
    "hyperdrive",
    "images",
    "intel",
    "lists",
    "load-balancing",
    "logcontrol",
    "logpush",
    "magic",
    "magic-transit",
    "mtls-management",
    "observatory",
    "page-shield",
    "pages",
    "queues",
    "r2",
    "registrar",
    "rulesets",
    "rum",
    "secondary-dns",
    "security-center",
    "snippets",
    "spectrum",
    "speed",
    "ssl",
    "storage",
    "stream",
    "teams-devices",
    "tunnel",
    "turnstile",
    "url-normalization",
    "user",
    "vectorize",
    "waf-managed-rules",
    "waiting-room",
    "web3",
    "workers",
    "workers-kv",
    "zaraz",
    "zero-trust",
    "zones",
]
RESOURCES = [
    "app",
    "policy",
    "group",
    "rule",
    "rule-set",
    "list",
    "item",
    "certificate",
    "key",
    "token",
    "route",
    "script",
    "namespace",
    "bucket",
    "queue",
    "consumer",
    "pool",
    "monitor",
    "origin",
    "record",
    "zone",
    "setting",
    "tunnel",
    "connector",
    "device",
    "profile",
    "hostname",
    "job",
    "dataset",
    "binding",
    "deployment",
    "version",
    "subscription",
    "alert",
    "member",
    "role",
    "invite",
    "webhook",
    "destination",
    "filter",
    "page",
    "widget",
]
# Each field kind of a resource: its name and its schema (a description is added).
FIELD_KINDS: list[tuple[str, dict[str, Any]]] = [
    (
        "identifier",
        {
            "type": "string",
            "maxLength": 32,
            "readOnly": True,
            "example": "023e105f4ecef8ad9ca31a8372d0c353",
        },
    ),
    ("name", {"type": "string", "maxLength": 253, "example": "example.com"}),
    ("enabled", {"type": "boolean", "default": True, "example": True}),
    ("paused", {"type": "boolean", "default": False}),
    ("ttl", {"type": "number", "minimum": 1, "maximum": 86400, "default": 1, "example": 3600}),
    ("priority", {"type": "integer", "minimum": 0, "maximum": 65535, "default": 0}),
    ("mode", {"type": "string", "enum": ["auto", "manual", "off"], "default": "auto"}),
    (
        "status",
        {
            "type": "string",
            "enum": ["active", "pending", "disabled"],
            "readOnly": True,
            "default": "pending",
        },
    ),
    (
        "created_on",
        {
            "type": "string",
            "format": "date-time",
            "readOnly": True,
            "example": "2014-01-01T05:20:00.12345Z",
        },
    ),
    ("modified_on", {"type": "string", "format": "date-time", "readOnly": True}),
    (
        "description",
        {
            "type": "string",
            "maxLength": 500,
            "default": "",
            "example": "Restrict access to these endpoints.",
        },
    ),
    ("comment", {"type": "string", "nullable": True, "default": None}),
    ("tags", {"type": "array", "items": {"type": "string"}, "default": []}),
    ("timeout", {"type": "integer", "minimum": 1, "maximum": 300, "default": 30}),
    ("retries", {"type": "integer", "minimum": 0, "maximum": 5, "default": 2}),
    ("proxied", {"type": "boolean", "default": False}),
    ("expires_on", {"type": "string", "format": "date-time", "nullable": True}),
    (
        "email",
        {"type": "string", "format": "email", "maxLength": 90, "example": "user@example.com"},
    ),
    ("hosts", {"type": "array", "items": {"type": "string", "format": "hostname"}}),
    (
        "settings",
        {
            "type": "object",
            "default": {"min_tls": "1.2", "http2": True},
            "properties": {
                "min_tls": {
                    "type": "string",
                    "enum": ["1.0", "1.1", "1.2", "1.3"],
                    "default": "1.0",
                },
                "http2": {"type": "boolean", "default": False},
                "ciphers": {"type": "array", "items": {"type": "string"}, "default": []},
            },
        },
    ),
    ("uuid", {"type": "string", "format": "uuid", "readOnly": True}),
    ("weight", {"type": "number", "minimum": 0, "maximum": 1, "default": 1, "multipleOf": 0.01}),
]
# What a wrong default looks like in the real contract: (field kind, wrong default).
WRONG = [
    ("name", 0),
    ("enabled", "false"),
    ("mode", "none"),
    ("timeout", "30"),
    ("priority", 70000),
    ("tags", "[]"),
    ("weight", "1"),
    ("description", 0),
]


def cloudflare_like() -> dict[str, Any]:
    rng = random.Random(SEED)
    schemas: dict[str, Any] = {}
    parameters: dict[str, Any] = {}
    responses: dict[str, Any] = {}
    paths: dict[str, Any] = {}
    count = 0
    product = 0
    wrong_components = 0
    wrong_inline = 0
    while count < OPERATIONS:
        prefix = PRODUCTS[product % len(PRODUCTS)] + ("" if product < len(PRODUCTS) else "2")
        product += 1
        _envelopes(schemas, prefix)
        parameters[f"{prefix}_account_id"] = {
            "in": "path",
            "name": "account_id",
            "required": True,
            "schema": {"$ref": f"#/components/schemas/{prefix}_identifier"},
        }
        responses[f"{prefix}_4XX"] = {
            "description": "Client error",
            "content": {"application/json": {"schema": _failure(prefix)}},
        }
        for resource in rng.sample(RESOURCES, rng.randint(3, 6)):
            if count >= OPERATIONS:
                break
            wrong = None
            if wrong_components < 14 and rng.random() < 0.06:
                wrong = WRONG[wrong_components % len(WRONG)]
                wrong_components += 1
            fields = _resource(schemas, rng, prefix, resource, wrong)
            base = f"/accounts/{{account_id}}/{prefix}/{resource}s"
            item_path = base + f"/{{{resource.replace('-', '_')}_id}}"
            id_param = {
                "in": "path",
                "name": f"{resource.replace('-', '_')}_id",
                "required": True,
                "schema": {"$ref": f"#/components/schemas/{prefix}_identifier"},
            }
            account = {"$ref": f"#/components/parameters/{prefix}_account_id"}
            wrong_here = wrong_inline < 11 and rng.random() < 0.04
            wrong_inline += wrong_here
            ops = {
                (base, "get"): [account, *_list_parameters(rng, prefix, fields, wrong_here)],
                (base, "post"): [account],
                (item_path, "get"): [account, id_param],
                (item_path, "put"): [account, id_param],
                (item_path, "patch"): [account, id_param],
                (item_path, "delete"): [account, id_param],
            }
            kept = list(ops)[: rng.choice((4, 5, 5, 6, 6))]
            for path, method in kept:
                if count >= OPERATIONS:
                    break
                count += 1
                paths.setdefault(path, {})[method] = _operation(
                    prefix, resource, method, path, ops[(path, method)]
                )
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Cloudflare API (synthetic)",
            "version": "4.0.0",
            "description": "A synthetic contract of the real one's shape.",
        },
        "servers": [{"url": "https://api.cloudflare.com/client/v4"}],
        "security": [{"api_email": [], "api_key": []}, {"api_token": []}],
        "tags": [{"name": p} for p in PRODUCTS],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "parameters": parameters,
            "responses": responses,
            "securitySchemes": {
                "api_email": {"type": "apiKey", "in": "header", "name": "X-Auth-Email"},
                "api_key": {"type": "apiKey", "in": "header", "name": "X-Auth-Key"},
                "api_token": {"type": "http", "scheme": "bearer"},
                "user_service_key": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-Auth-User-Service-Key",
                },
            },
        },
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _envelopes(schemas: dict[str, Any], prefix: str) -> None:
    """The per-product response envelope, as the real contract repeats it per product."""
    message = {
        "type": "object",
        "required": ["code", "message"],
        "uniqueItems": True,
        "properties": {"code": {"type": "integer", "minimum": 1000}, "message": {"type": "string"}},
    }
    schemas[f"{prefix}_messages"] = {"type": "array", "items": message, "example": []}
    schemas[f"{prefix}_identifier"] = dict(FIELD_KINDS[0][1], description="Identifier")
    schemas[f"{prefix}_result_info"] = {
        "type": "object",
        "properties": {
            key: {"type": "number", "description": f"The {key.replace('_', ' ')}.", "example": 1}
            for key in ("count", "page", "per_page", "total_count")
        },
    }
    schemas[f"{prefix}_api-response-common"] = {
        "type": "object",
        "required": ["success", "errors", "messages"],
        "properties": {
            "errors": _ref(f"{prefix}_messages"),
            "messages": _ref(f"{prefix}_messages"),
            "success": {"type": "boolean", "enum": [True], "description": "Whether it worked."},
        },
    }
    schemas[f"{prefix}_api-response-common-failure"] = {
        "type": "object",
        "required": ["success", "errors", "messages", "result"],
        "properties": {
            "errors": {
                "allOf": [_ref(f"{prefix}_messages")],
                "example": [{"code": 7003, "message": "No route for the URI"}],
            },
            "messages": {"allOf": [_ref(f"{prefix}_messages")], "example": []},
            "result": {"type": "object", "nullable": True, "enum": [None]},
            "success": {"type": "boolean", "enum": [False]},
        },
    }
    schemas[f"{prefix}_api-response-collection"] = {
        "allOf": [
            _ref(f"{prefix}_api-response-common"),
            {"properties": {"result_info": _ref(f"{prefix}_result_info")}},
        ]
    }
    schemas[f"{prefix}_api-response-single"] = {
        "allOf": [_ref(f"{prefix}_api-response-common"), {"properties": {"result": {}}}]
    }
    schemas[f"{prefix}_timestamp"] = {
        "type": "string",
        "format": "date-time",
        "readOnly": True,
        "example": "2014-01-01T05:20:00.12345Z",
    }
    schemas[f"{prefix}_order"] = {
        "type": "string",
        "enum": ["name", "created_on", "modified_on"],
        "default": "name",
    }
    schemas[f"{prefix}_direction"] = {
        "type": "string",
        "enum": ["asc", "desc"],
        "default": "asc",
        "description": "Direction to order by.",
    }


def _failure(prefix: str) -> dict[str, Any]:
    return {"allOf": [_ref(f"{prefix}_api-response-common-failure")]}


def _resource(
    schemas: dict[str, Any],
    rng: random.Random,
    prefix: str,
    resource: str,
    wrong: tuple[str, Any] | None,
) -> list[str]:
    """The resource's field schemas, its object, and its envelopes: the names of its fields."""
    kinds = [FIELD_KINDS[1], *rng.sample(FIELD_KINDS[2:], 5)]
    if wrong is not None and wrong[0] not in {name for name, _ in kinds}:
        kinds.append(next(kind for kind in FIELD_KINDS if kind[0] == wrong[0]))
    names = []
    properties: dict[str, Any] = {"id": _ref(f"{prefix}_identifier")}
    for kind, template in kinds:
        name = f"{prefix}_{resource}_{kind}"
        schema = json.loads(json.dumps(template))
        schema["description"] = f"The {kind.replace('_', ' ')} of the {resource}."
        if wrong is not None and kind == wrong[0]:
            schema["default"] = wrong[1]
        schemas[name] = schema
        names.append(kind)
        if kind == "mode" and rng.random() < 0.5:
            # A default beside a $ref: the schema it belongs to is the referenced one.
            properties[kind] = {"allOf": [_ref(name)], "default": "manual"}
        else:
            properties[kind] = _ref(name)
    properties["status"] = {"allOf": [_ref(f"{prefix}_order")], "default": "created_on"}
    obj = f"{prefix}_{resource}"
    schemas[obj] = {"type": "object", "required": ["id", "name"], "properties": properties}
    schemas[f"{obj}_response_single"] = {
        "allOf": [
            _ref(f"{prefix}_api-response-common"),
            {"properties": {"result": _ref(obj)}},
        ]
    }
    schemas[f"{obj}_response_collection"] = {
        "allOf": [
            _ref(f"{prefix}_api-response-collection"),
            {"properties": {"result": {"type": "array", "items": _ref(obj)}}},
        ]
    }
    schemas[f"{obj}_request"] = {
        "type": "object",
        "required": ["name"],
        "properties": {k: v for k, v in properties.items() if k not in ("id", "status")},
    }
    return names


def _list_parameters(
    rng: random.Random, prefix: str, fields: list[str], wrong: bool
) -> list[dict[str, Any]]:
    per_page: dict[str, Any] = {"type": "number", "default": 20, "minimum": 5, "maximum": 1000}
    if wrong:
        per_page["default"] = rng.choice(("20", 2000, True))
    found = [
        {"in": "query", "name": "page", "schema": {"type": "number", "default": 1, "minimum": 1}},
        {"in": "query", "name": "per_page", "schema": per_page},
        {"in": "query", "name": "order", "schema": _ref(f"{prefix}_order")},
        {"in": "query", "name": "direction", "schema": _ref(f"{prefix}_direction")},
        {
            "in": "query",
            "name": "match",
            "schema": {"type": "string", "enum": ["any", "all"], "default": "all"},
        },
    ]
    if "enabled" in fields:
        found.append(
            {"in": "query", "name": "enabled", "schema": {"type": "boolean", "default": True}}
        )
    if "name" in fields:
        found.append(
            {"in": "query", "name": "name", "schema": {"type": "string", "maxLength": 253}}
        )
    return found


def _operation(
    prefix: str, resource: str, method: str, path: str, parameters: list[dict[str, Any]]
) -> dict[str, Any]:
    obj = f"{prefix}_{resource}"
    listing = method == "get" and not path.endswith("_id}")
    verb = {
        "get": "list" if listing else "get",
        "post": "create",
        "put": "update",
        "patch": "edit",
        "delete": "delete",
    }[method]
    answer = f"{obj}_response_collection" if listing else f"{obj}_response_single"
    spec: dict[str, Any] = {
        "operationId": f"{prefix}-{verb}-{resource}",
        "summary": f"{verb.title()} {resource}".replace("-", " "),
        "description": f"{verb.title()} the {resource} of an account ({prefix}).",
        "tags": [prefix],
        "parameters": parameters,
        "responses": {
            "200": {
                "description": f"{verb} response",
                "content": {"application/json": {"schema": _ref(answer)}},
            },
            "4XX": {
                "description": f"{verb} failure",
                "content": {
                    "application/json": {
                        "schema": {
                            "allOf": [_ref(answer), _ref(f"{prefix}_api-response-common-failure")]
                        }
                    }
                },
            },
        },
    }
    if method in ("post", "put", "patch"):
        spec["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": _ref(f"{obj}_request")}},
        }
    return spec


def main() -> int:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    document = cloudflare_like()
    Path(sys.argv[1]).write_text(json.dumps(document, indent=1), encoding="utf-8")
    ops = sum(1 for item in document["paths"].values() for _ in item)
    components = sum(len(v) for v in document["components"].values())
    print(f"{sys.argv[1]}: {ops} operations, {components} components")
    return 0


if __name__ == "__main__":
    sys.exit(main())

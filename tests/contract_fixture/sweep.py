"""Required inputs of a generated operation as leadctl arguments, from its index entry (names,
flags) and the contract (schemas), for the sweep over every operation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.contract_mock import ContractMock, Route
from tests.support.contract_mock_fixtures import ORG_KEY, SOURCE_KEY

JSON_MEDIA_SUFFIXES = ("json",)


def is_idempotency_key(name: str) -> bool:
    lowered = name.lower().replace("-", "")
    return lowered.endswith("idempotencykey")


def text_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def route_of(mock: ContractMock, method: str, template: str) -> Route:
    return next(r for r in mock.routes if r.method == method and r.template == template)


def credential_for(route: Route) -> str:
    """The organization key, unless the operation takes only a source key."""
    security = route.spec.get("security", [])
    schemes = {name for requirement in security for name in requirement}
    return SOURCE_KEY if schemes == {"SourceKey"} else ORG_KEY


def idempotency_keys(mock: ContractMock, method: str, template: str) -> list[str]:
    """The operation's idempotency-key header parameters and top-level body fields."""
    route = route_of(mock, method, template)
    names = [str(p["name"]) for p in route.parameters if p.get("in") == "header"]
    request_body = mock.schemas.resolve(route.spec.get("requestBody")) or {}
    for entry in (request_body.get("content") or {}).values():
        names += list(mock.schemas.properties((entry or {}).get("schema", {})))
    return sorted({name for name in names if is_idempotency_key(name)})


def arguments(mock: ContractMock, entry: dict[str, Any], workdir: Path) -> list[str]:
    """``GROUP VERB`` with the path parameters, required query and header parameters and the
    required body fields (an idempotency key is left to leadctl)."""
    route = route_of(mock, str(entry["method"]), str(entry["path"]))
    schemas = {str(p["name"]): p.get("schema", {}) for p in route.parameters}
    args = [str(entry["group"]), str(entry["verb"])]
    params = entry.get("params") or []
    for param in params:
        if param["in"] == "path":
            args.append(text_of(mock.schemas.example(schemas[param["name"]])))
    for param in params:
        if param["in"] in ("query", "header") and param.get("required"):
            if is_idempotency_key(str(param["name"])):
                continue
            value = mock.schemas.example(schemas[param["name"]])
            args += [str(param["flag"]), text_of(value)]
    args += body_arguments(mock, route, entry, workdir)
    return args


def given_path_values(mock: ContractMock, entry: dict[str, Any]) -> list[tuple[bool, str]]:
    """(is a phone number, the value given) for each path argument ``arguments`` gives."""
    route = route_of(mock, str(entry["method"]), str(entry["path"]))
    schemas = {str(p["name"]): p.get("schema", {}) for p in route.parameters}
    return [
        (bool(param.get("phone")), text_of(mock.schemas.example(schemas[param["name"]])))
        for param in entry.get("params") or []
        if param["in"] == "path"
    ]


PHONE = "+15125550123"


def with_phone(value: Any, parts: list[str]) -> None:
    """Put PHONE at the dot path ``parts`` (``name[]`` for each item of a list) where the
    example has a value."""
    head, rest = parts[0], parts[1:]
    name, is_list = head.removesuffix("[]"), head.endswith("[]")
    if not isinstance(value, dict) or name not in value:
        return
    targets = value[name] if is_list and isinstance(value[name], list) else None
    if targets is None:
        if rest:
            with_phone(value[name], rest)
        else:
            value[name] = PHONE
        return
    for index, item in enumerate(targets):
        if rest:
            with_phone(item, rest)
        else:
            targets[index] = PHONE


def body_arguments(
    mock: ContractMock, route: Route, entry: dict[str, Any], workdir: Path
) -> list[str]:
    request_body = mock.schemas.resolve(route.spec.get("requestBody"))
    if not isinstance(request_body, dict):
        return []
    form = bool((entry.get("body") or {}).get("form"))
    if not request_body.get("required") and not form:
        return []
    media = str((entry.get("body") or {}).get("media") or next(iter(request_body["content"])))
    content = request_body["content"]
    schema = (content.get(media) or next(iter(content.values()))).get("schema", {})
    # A form of optional fields is refused empty (nothing a person meant): give them all.
    value = mock.schemas.example(schema, required_only=bool(request_body.get("required")))
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if not is_idempotency_key(k)}
        for path in (entry.get("body") or {}).get("phones", ()):
            # A phone number is what leadctl checks it is (its name may be all that says so).
            with_phone(value, path.split("."))
    base = media.split(";")[0].strip().lower()
    if base.endswith(JSON_MEDIA_SUFFIXES) or base == "text/json":
        return ["--data", json.dumps(value)]
    args: list[str] = []
    properties = mock.schemas.properties(schema)
    for name, field_value in value.items():
        if mock.schemas.keyword(properties.get(name, {}), "format") == "binary":
            upload = workdir / f"{name}.png"
            upload.write_bytes(b"\x89PNG\r\n\x1a\nfixture")
            args += ["--file", f"{name}=@{upload}"]
        else:
            args += ["--field", f"{name}={text_of(field_value)}"]
    return args

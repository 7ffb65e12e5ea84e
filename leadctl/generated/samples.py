"""Plausible values for a generated verb's examples, from what the index says of each
parameter and body field (its type, format, enum, name), so an example names the fields
the operation really requires and reads like a real command line."""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterator, Sequence
from typing import Any

from leadctl.contract.entries import BodyField, Parameter
from leadctl.contract.naming import words

PHONE = "+15125550123"
UUID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"
# An offset-less time is read in the profile's zone: the example shows the short form.
DATETIME = "2026-01-15T09:30"
BY_FORMAT: dict[str, Any] = {
    "date-time": DATETIME,
    "date": "2026-01-15",
    "email": "ada@example.com",
    "uri": "https://example.com/consent/123",
    "url": "https://example.com/consent/123",
    "uuid": UUID,
    "ipv4": "203.0.113.7",
}
BY_KIND: dict[str, Any] = {"boolean": True, "integer": 1, "number": 1.5}
BY_NAME: dict[str, Any] = {
    "firstname": "Ada",
    "lastname": "Lovelace",
    "fullname": "Ada Lovelace",
    "name": "Example",
    "email": "ada@example.com",
    "state": "TX",
    "postalcode": "78701",
    "zip": "78701",
    "zipcode": "78701",
    "color": "#1f77b4",
    "url": "https://example.com",
}


def sample(spec: Parameter | BodyField) -> Any:
    """A value of the parameter or body field ``spec``."""
    if spec.enum:
        return spec.enum[0]
    if spec.phone:
        return PHONE
    if isinstance(spec, Parameter):
        if spec.type == "array":
            return [_value(spec.items or "string")]
        return _value(spec.type, spec.format or spec.type, spec.name)
    return _value(spec.type, spec.type, spec.name, spec.fields)


def _value(
    kind: str, fmt: str | None = None, name: str = "", fields: Sequence[BodyField] = ()
) -> Any:
    """A value of type ``kind`` (with ``fmt``, a field's own ``fields``), named ``name``."""
    fmt = fmt or kind
    if fmt in BY_FORMAT:
        return BY_FORMAT[fmt]
    if kind in BY_KIND:
        return BY_KIND[kind]
    if kind == "object":
        return {f.name: sample(f) for f in fields if f.required}
    if kind == "array of object":
        return [_value("object", fields=fields)]
    if kind.startswith("array of "):
        item = kind.removeprefix("array of ")
        return [_value(item, item, name[:-1])]
    lowered = name.lower().replace("_", "")
    if lowered in BY_NAME:
        return BY_NAME[lowered]
    if lowered.endswith("id"):
        return placeholder(name)
    return "example"


def placeholder(name: str, collection: str = "") -> str:
    """``LEAD_ID`` for ``leadId``, or for ``id`` under ``/leads``: an example's id is a
    word to replace, never a made-up id that reads like a real one."""

    parts = words(name)
    if parts in (["id"], []) and collection:
        parts = [*words(_singular(collection)), "id"]
    return "_".join(parts).upper() or "ID"


def _singular(segment: str) -> str:
    """``lead-status-changes`` -> ``lead-status-change``, ``categories`` -> ``category``;
    a short word (``sms``) is left as it is."""
    if len(segment.rsplit("-", 1)[-1]) <= 3:
        return segment
    if segment.endswith("ies"):
        return segment[:-3] + "y"
    if segment.endswith(("sses", "uses", "xes")):
        return segment[:-2]
    if segment.endswith("s") and not segment.endswith("ss"):
        return segment[:-1]
    return segment


def _path_value(param: Parameter, path: str) -> Any:
    """A path parameter's example: a phone number as one, any other value as a placeholder
    named after it (or after the collection before it: ``/sms/{id}`` -> SMS_ID)."""
    if param.phone or param.enum:
        return sample(param)
    segments = path.split("/")
    marker = "{" + param.name + "}"
    before = segments[segments.index(marker) - 1] if marker in segments[1:] else ""
    return placeholder(param.name, "" if before.startswith("{") else before)


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def field_pairs(fields: Sequence[BodyField], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``(dot.path, value)`` for every required body field, a required object by its own
    required fields (``{}`` when it requires none), a list of objects as JSON."""
    for field in fields:
        if not field.required:
            continue
        path = f"{prefix}{field.name}"
        nested = [f for f in field.fields if f.required]
        if field.type == "object" and nested:
            yield from field_pairs(nested, f"{path}.")
        elif field.type == "object":
            yield path, {}
        elif field.type.startswith("array of") and field.type != "array of object":
            # One item, appended the way --field writes a list (tagIds[]=...).
            yield f"{path}[]", sample(field)[0]
        else:
            yield path, sample(field)


def field_args(fields: Sequence[BodyField]) -> str:
    """`` --field PATH=VALUE`` for each required field, shell-quoted."""
    return "".join(
        f" --field {shlex.quote(f'{path}={_text(value)}')}" for path, value in field_pairs(fields)
    )


def body_json(fields: Sequence[BodyField]) -> str:
    """The required fields as one JSON object (for ``--data``)."""
    body = {field.name: sample(field) for field in fields if field.required}
    return json.dumps(body, separators=(",", ":"))


def param_args(params: Sequence[Parameter], path: str = "") -> str:
    """Path parameters as placeholders (or values) and required query/header parameters
    as options."""
    words = [shlex.quote(_text(_path_value(p, path))) for p in params if p.where == "path"]
    for param in params:
        if param.where == "path" or not param.required:
            continue
        if param.type == "boolean":
            words.append(str(param.flag))
        else:
            words.append(f"{param.flag} {shlex.quote(_text(sample(param)))}")
    return "".join(f" {word}" for word in words)

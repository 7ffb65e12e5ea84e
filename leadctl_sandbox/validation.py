"""Request validation against the contract's own schemas.

The sandbox accepts exactly what the contract describes, so it interprets the JSON Schema
keywords the contract uses rather than keeping a second, hand-written copy of the rules.
Failures are collected as the ``errors`` map of the problem body: JSON field name (dot and
``[i]`` paths for nested fields) -> messages.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from leadctl.util.jsonkind import json_type
from leadctl_sandbox.times import is_datetime, parse_date

Errors = dict[str, list[str]]
BODY_KEY = "body"
_INT32 = (-(2**31), 2**31 - 1)
_INT64 = (-(2**63), 2**63 - 1)
_INTEGER_TEXT = re.compile(r"^[+-]?[0-9]+$")


def _type_matches(value: Any, wanted: str) -> bool:
    actual = json_type(value)
    if wanted == "number":
        return actual in ("integer", "number")
    return actual == wanted


def json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON sees it: true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return bool(a == b)


def _ecma_pattern(pattern: str) -> re.Pattern[str]:
    # In ECMA-262 a final $ matches only at the very end; Python's also before a final "\n".
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


class SchemaValidator:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self._document = document
        self._patterns: dict[str, re.Pattern[str]] = {}

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        while "$ref" in schema and len(schema) == 1:
            schema = self._lookup(schema["$ref"])
        return schema

    def _lookup(self, pointer: str) -> Mapping[str, Any]:
        node: Any = self._document
        for part in pointer.removeprefix("#/").split("/"):
            node = node[part]
        return dict(node)

    def validate(self, schema: Mapping[str, Any], value: Any, *, where: str = "") -> Errors:
        errors: Errors = {}
        self._check(schema, value, where, errors)
        return errors

    # -- keywords ----------------------------------------------------------------------

    def _check(self, schema: Mapping[str, Any], value: Any, path: str, errors: Errors) -> None:
        if "$ref" in schema:
            self._check(self._lookup(schema["$ref"]), value, path, errors)
        if not self._check_type(schema, value, path, errors):
            return
        if "enum" in schema and not any(json_equal(value, o) for o in schema["enum"]):
            shown = ", ".join("null" if o is None else str(o) for o in schema["enum"])
            _add(errors, path, f"must be one of: {shown}")
        if "const" in schema and not json_equal(value, schema["const"]):
            _add(errors, path, f"must be {schema['const']!r}")
        for sub in schema.get("allOf", ()):
            self._check(sub, value, path, errors)
        if "anyOf" in schema:
            self._check_any_of(schema["anyOf"], value, path, errors)
        if "oneOf" in schema:
            self._check_one_of(schema["oneOf"], value, path, errors)
        if isinstance(value, str):
            self._check_string(schema, value, path, errors)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            self._check_number(schema, value, path, errors)
        elif isinstance(value, list):
            self._check_array(schema, value, path, errors)
        elif isinstance(value, dict):
            self._check_object(schema, value, path, errors)

    def _check_type(self, schema: Mapping[str, Any], value: Any, path: str, errors: Errors) -> bool:
        wanted = schema.get("type")
        if wanted is None:
            return True
        options = [wanted] if isinstance(wanted, str) else list(wanted)
        if any(_type_matches(value, option) for option in options):
            return True
        names = " or ".join("null" if o == "null" else f"a JSON {o}" for o in options)
        _add(errors, path, f"must be {names}")
        return False

    def _check_any_of(
        self, options: list[Mapping[str, Any]], value: Any, path: str, errors: Errors
    ) -> None:
        failures = []
        for option in options:
            found = self.validate(option, value, where=path)
            if not found:
                return
            # "must be null" says nothing useful next to the real shape's errors.
            if self.resolve(option) != {"type": "null"}:
                failures.append(found)
        if not failures:
            _add(errors, path, "must be null")
        for found in failures:
            for key, messages in found.items():
                for message in messages:
                    _add(errors, key, message)

    def _check_one_of(
        self, options: list[Mapping[str, Any]], value: Any, path: str, errors: Errors
    ) -> None:
        matches = sum(1 for option in options if not self.validate(option, value, where=path))
        if matches != 1:
            _add(errors, path, "must match exactly one of the allowed shapes")

    def _check_string(
        self, schema: Mapping[str, Any], value: str, path: str, errors: Errors
    ) -> None:
        if "minLength" in schema and len(value) < schema["minLength"]:
            if schema["minLength"] == 1:
                _add(errors, path, "must not be empty")
            else:
                _add(errors, path, f"must be at least {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            _add(errors, path, f"must be at most {schema['maxLength']} characters")
        if "pattern" in schema:
            pattern = schema["pattern"]
            compiled = self._patterns.get(pattern)
            if compiled is None:
                compiled = self._patterns[pattern] = _ecma_pattern(pattern)
            if compiled.search(value) is None:
                _add(errors, path, f"must match {pattern}")
        fmt = schema.get("format")
        if fmt == "date-time" and not is_datetime(value):
            _add(errors, path, "must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z")
        elif fmt == "date" and parse_date(value) is None:
            _add(errors, path, "must be a date such as 2025-01-31")

    def _check_number(
        self, schema: Mapping[str, Any], value: float, path: str, errors: Errors
    ) -> None:
        if isinstance(value, float) and not math.isfinite(value):
            _add(errors, path, "must be a finite number")
            return
        fmt = schema.get("format")
        bounds = _INT32 if fmt == "int32" else _INT64 if fmt == "int64" else None
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            _add(errors, path, f"must fit in {fmt}")
        if "minimum" in schema and value < schema["minimum"]:
            _add(errors, path, f"must be at least {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            _add(errors, path, f"must be at most {schema['maximum']}")

    def _check_array(
        self, schema: Mapping[str, Any], value: list[Any], path: str, errors: Errors
    ) -> None:
        if "minItems" in schema and len(value) < schema["minItems"]:
            _add(errors, path, f"must have at least {schema['minItems']} items")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            _add(errors, path, f"must have at most {schema['maxItems']} items")
        items = schema.get("items")
        if isinstance(items, Mapping):
            for index, item in enumerate(value):
                self._check(items, item, f"{path}[{index}]", errors)

    def _check_object(
        self, schema: Mapping[str, Any], value: dict[str, Any], path: str, errors: Errors
    ) -> None:
        properties: Mapping[str, Any] = schema.get("properties", {})
        for name in schema.get("required", ()):
            if name not in value:
                _add(errors, _join(path, name), "is required")
        for name, required in schema.get("dependentRequired", {}).items():
            if name in value:
                for other in required:
                    if other not in value:
                        _add(errors, _join(path, other), f"is required when {name} is given")
        for name, item in value.items():
            if name in properties:
                self._check(properties[name], item, _join(path, name), errors)
            else:
                extra = schema.get("additionalProperties", True)
                if extra is False:
                    _add(errors, _join(path, name), "is not a known field")
                elif isinstance(extra, Mapping):
                    self._check(extra, item, _join(path, name), errors)

    # -- parameters --------------------------------------------------------------------

    def coerce_parameter(self, schema: Mapping[str, Any], raw: str) -> Any:
        """A query or path value (text) as the type its schema names; raises ValueError."""
        wanted = self.resolve(schema).get("type")
        if wanted == "integer":
            if not _INTEGER_TEXT.match(raw):
                raise ValueError("must be an integer")
            return int(raw)
        if wanted == "boolean":
            if raw not in ("true", "false"):
                raise ValueError("must be true or false")
            return raw == "true"
        return raw


def schema_ref(name: str) -> dict[str, str]:
    """A reference to a named schema of the contract's components."""
    return {"$ref": f"#/components/schemas/{name}"}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _add(errors: Errors, path: str, message: str) -> None:
    messages = errors.setdefault(path or BODY_KEY, [])
    if message not in messages:
        messages.append(message)

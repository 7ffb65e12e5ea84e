"""Request validation against the contract's own schemas, with the engine leadctl uses.

jsonschema-rs (JSON Schema 2020-12, the dialect of OpenAPI 3.1) decides; this module only
words its verdicts as the ``errors`` map of the problem body: JSON field name (dot and
``[i]`` paths for nested fields) -> messages. A message never quotes the refused value, which
may be a secret. The library loads on the first validation, not when the sandbox is imported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from leadctl_sandbox.times import is_datetime, parse_date

if TYPE_CHECKING:
    from jsonschema_rs import ValidationError

Errors = dict[str, list[str]]
BODY_KEY = "body"
_INTEGER_TEXT = re.compile(r"^[+-]?[0-9]+$")
# The sandbox parses these values itself, so it accepts exactly what its parsers read
# (a leap second, which jsonschema-rs allows, has no datetime).
_FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": is_datetime,
    "date": lambda text: parse_date(text) is not None,
}
_FORMAT_WORDS = {
    "date-time": "must be an RFC 3339 date-time such as 2025-01-31T09:30:00Z",
    "date": "must be a date such as 2025-01-31",
}


class SchemaValidator:
    def __init__(self, document: Mapping[str, Any]) -> None:
        self._document = document
        self._validators: dict[str, Any] = {}

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
        root, validator = self._validator(schema)
        for error in validator.iter_errors(value):
            for path, message in _worded(root, self._lookup, error):
                _add(errors, _join(where, path), message)
        return errors

    def _validator(self, schema: Mapping[str, Any]) -> tuple[Mapping[str, Any], Any]:
        """The compiled validator of ``schema`` (its $refs resolve in the contract), built
        once per schema: compiling costs more than validating."""
        key = json.dumps(schema, sort_keys=True)
        found = self._validators.get(key)
        if found is None:
            import jsonschema_rs

            root = {"components": self._document.get("components", {}), "allOf": [schema]}
            compiled = jsonschema_rs.Draft202012Validator(
                root, validate_formats=True, formats=_FORMATS
            )
            found = self._validators[key] = (root, compiled)
        return found

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


def _worded(
    root: Mapping[str, Any], lookup: Callable[[str], Mapping[str, Any]], error: ValidationError
) -> Iterable[tuple[str, str]]:
    """(field path, message) for one verdict of the library, in the sandbox's words."""
    kind = type(error.kind).__name__
    facts: dict[str, Any] = error.kind.as_dict()
    path = _field_path(error.instance_path)
    if kind == "AnyOf":
        # The failures of the real shapes, not "must be null" beside them.
        shaped = [
            found
            for found in error.kind.context  # type: ignore[attr-defined]
            if not (len(found) == 1 and _is_null_only(found[0]))
        ]
        if not shaped:
            yield path, "must be null"
        for found in shaped:
            for sub in found:
                yield from _worded(root, lookup, sub)
    elif kind == "Required":
        name = facts["property"]
        if error.schema_path and error.schema_path[-1] == "dependentRequired":
            rules = _schema_at(root, lookup, error.schema_path)
            for given, needs in rules.items():
                if name in needs and isinstance(error.instance, dict) and given in error.instance:
                    yield _join(path, name), f"is required when {given} is given"
        else:
            yield _join(path, name), "is required"
    elif kind == "AdditionalProperties":
        for name in facts["unexpected"]:
            yield _join(path, name), "is not a known field"
    else:
        yield path, _message(kind, facts)


def _message(kind: str, facts: Mapping[str, Any]) -> str:
    limit = facts.get("limit")
    if kind == "Type":
        # The library sorts the types; null reads best last ("a JSON string or null").
        types = sorted(facts["types"], key=lambda t: t == "null")
        return "must be " + " or ".join("null" if t == "null" else f"a JSON {t}" for t in types)
    if kind == "Enum":
        shown = ", ".join("null" if o is None else str(o) for o in facts["options"])
        return f"must be one of: {shown}"
    if kind == "Constant":
        return f"must be {facts['expected_value']!r}"
    if kind == "MinLength":
        return "must not be empty" if limit == 1 else f"must be at least {limit} characters"
    if kind == "MaxLength":
        return f"must be at most {limit} characters"
    if kind == "Pattern":
        return f"must match {facts['pattern']}"
    if kind == "Format":
        return _FORMAT_WORDS.get(facts["format"], f"must be a valid {facts['format']}")
    if kind == "Minimum":
        return f"must be at least {limit}"
    if kind == "Maximum":
        return f"must be at most {limit}"
    if kind == "MinItems":
        return f"must have at least {limit} items"
    if kind == "MaxItems":
        return f"must have at most {limit} items"
    if kind in ("OneOfNotValid", "OneOfMultipleValid"):
        return "must match exactly one of the allowed shapes"
    return "is not valid here"


def _is_null_only(error: ValidationError) -> bool:
    return type(error.kind).__name__ == "Type" and error.kind.as_dict()["types"] == ["null"]


def _schema_at(
    root: Mapping[str, Any],
    lookup: Callable[[str], Mapping[str, Any]],
    schema_path: Sequence[str | int],
) -> Mapping[str, Any]:
    """The schema node a keyword location names, following its $refs."""
    node: Any = root
    for part in schema_path:
        node = lookup(node["$ref"]) if part == "$ref" else node[part]
    return dict(node)


def _field_path(parts: Sequence[str | int]) -> str:
    text = ""
    for part in parts:
        text = f"{text}[{part}]" if isinstance(part, int) else _join(text, part)
    return text


def schema_ref(name: str) -> dict[str, str]:
    """A reference to a named schema of the contract's components."""
    return {"$ref": f"#/components/schemas/{name}"}


def _join(path: str, name: str) -> str:
    if not name:
        return path
    if name.startswith("["):
        return f"{path}{name}"
    return f"{path}.{name}" if path else name


def _add(errors: Errors, path: str, message: str) -> None:
    messages = errors.setdefault(path or BODY_KEY, [])
    if message not in messages:
        messages.append(message)

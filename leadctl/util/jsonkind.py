"""What kind of JSON value a decoded value is: the JSON Schema type name, and the phrase
error messages use ("the service answered with an array", "--data must be a JSON object,
not a string")."""

from __future__ import annotations

from typing import Any

_PHRASES = {
    "object": "an object",
    "array": "an array",
    "null": "null",
    "string": "a string",
    "boolean": "a boolean",
    "integer": "a number",
    "number": "a number",
}


def json_type(value: Any) -> str:
    """The JSON Schema type of a decoded value: ``1.0`` is an integer there, as ``1`` is;
    "unknown" for what JSON cannot hold."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "unknown"


def json_kind(value: Any) -> str:
    """How a message names a decoded JSON value: "an array", "null", "a number", ..."""
    return _PHRASES.get(json_type(value), "a number")

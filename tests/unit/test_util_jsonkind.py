"""One classification of decoded JSON values, for error messages and schema checks."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.util.jsonkind import json_kind, json_type


@pytest.mark.parametrize(
    ("value", "schema_type", "phrase"),
    [
        ({}, "object", "an object"),
        ([1], "array", "an array"),
        (None, "null", "null"),
        ("x", "string", "a string"),
        (True, "boolean", "a boolean"),  # a bool is an int to Python, never to JSON
        (3, "integer", "a number"),
        (3.0, "integer", "a number"),  # JSON Schema: a number with no fraction
        (3.5, "number", "a number"),
        (float("inf"), "number", "a number"),
        ((1, 2), "unknown", "a number"),
    ],
)
def test_json_type_and_kind(value: Any, schema_type: str, phrase: str) -> None:
    assert json_type(value) == schema_type
    assert json_kind(value) == phrase


def test_an_answer_with_no_body_is_named_so() -> None:
    from leadctl.contract.shapes import json_kind as answer_kind

    assert answer_kind(None) == "null (or no body)"
    assert answer_kind([]) == "an array"

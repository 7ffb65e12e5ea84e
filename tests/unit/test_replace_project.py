"""What of a read goes back in a read-modify-write (issue 21 points 4 and 5): only what the
write's schema takes; never a read-only field; a secret only where the write requires it."""

from __future__ import annotations

from typing import Any

from leadctl.contract.document import Document
from leadctl.verbkit.replace import project

READ = {
    "id": "s1",
    "name": "Web",
    "apiKey": "srckey_old_0123456789abcdef",
    "apiKeyPreview": "srckey_…cdef",
    "intakeCode": "ic-0123456789",
    "extra": "not in the write",
    "nested": {"clientSecret": "cs-1", "label": "x"},
}


def write_schema(required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": required,
        "properties": {
            "name": {"type": "string"},
            "apiKey": {"type": "string"},
            "apiKeyPreview": {"type": "string", "readOnly": True},
            "intakeCode": {"type": "string"},
            "nested": {
                "type": "object",
                "properties": {"clientSecret": {"type": "string"}, "label": {"type": "string"}},
            },
        },
    }


def test_secrets_and_read_only_fields_of_the_read_are_not_sent_back() -> None:
    kept = project(
        Document({}), write_schema(["name"]), READ, read_secrets=frozenset({"intakeCode"})
    )
    assert kept == {"name": "Web", "nested": {"label": "x"}}


def test_a_secret_the_write_requires_is_sent_back() -> None:
    kept = project(Document({}), write_schema(["name", "apiKey"]), READ)
    assert kept["apiKey"] == READ["apiKey"]
    assert "apiKeyPreview" not in kept

"""What a contract says of a field decides whether it is a secret, where its name does not
(issue 21 point 4): a description saying it is an API key, writeOnly, format password; the
walk reaches nested objects and list items and ends on cyclic schemas. Tables compiled from
the contract mask those columns."""

from __future__ import annotations

from typing import Any

from leadctl.contract.document import Document
from leadctl.contract.index import compile_index
from leadctl.contract.secret_schema import secret_names, secret_properties

SCHEMAS: dict[str, Any] = {
    "Source": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "intakeCode": {"type": "string", "description": "The source's intake API key."},
            "pin": {"type": "string", "writeOnly": True},
            "passphrase2": {"type": "string", "format": "password"},
            "keyLast4": {"type": "string", "description": "The last four characters of the key."},
            "regenerate": {"type": "boolean", "description": "Issue a new API key."},
            "owner": {"$ref": "#/components/schemas/User"},
            "vendors": {"type": "array", "items": {"$ref": "#/components/schemas/Vendor"}},
        },
    },
    "User": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "manager": {"$ref": "#/components/schemas/User"},  # a cycle
            "signingSecret": {"type": "string"},
        },
    },
    "Vendor": {
        "type": "object",
        "properties": {"label": {"type": "string"}, "webhookToken": {"type": "string"}},
    },
}
DOC = Document({"components": {"schemas": SCHEMAS}})
SOURCE = {"$ref": "#/components/schemas/Source"}


def test_top_level_secrets_by_description_write_only_and_format() -> None:
    assert sorted(secret_properties(DOC, SOURCE)) == ["intakeCode", "passphrase2", "pin"]


def test_secret_names_anywhere_in_the_schema_and_the_walk_ends() -> None:
    assert secret_names(DOC, SOURCE) == {
        "intakeCode",
        "passphrase2",
        "pin",
        "signingSecret",
        "webhookToken",
    }


def test_a_compiled_table_masks_a_field_described_as_a_key() -> None:
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/sources/{id}": {
                "get": {
                    "operationId": "Sources_Get",
                    "tags": ["Sources"],
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "OK",
                            "content": {"application/json": {"schema": SOURCE}},
                        }
                    },
                }
            }
        },
        "components": {"schemas": SCHEMAS},
    }
    index, _schemas = compile_index(
        document,
        raw=b"{}",
        source="test",
        imported_at=None,
        curated_verbs={},
        leadctl_version="0",
    )
    (entry,) = index["operations"]
    kinds = {path: kind for path, kind, *_ in entry["response"]["columns"]}
    assert kinds["intakeCode"] == "secret"
    assert kinds["keyLast4"] == "text"
    assert kinds["id"] == "text"

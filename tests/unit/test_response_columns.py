"""--columns against a response schema, and curated defaults fitted to it
(leadctl.output.response_columns), on small schemas of the shapes real contracts have."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.contract.document import Document
from leadctl.output import Column
from leadctl.output.projection import project, selection_of
from leadctl.output.response_columns import ResponseFields, fitted

SCHEMAS: dict[str, Any] = {
    "Lead": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "firstName": {"type": ["string", "null"]},
            "currentLeadStatus": {
                "anyOf": [{"$ref": "#/components/schemas/Status"}, {"type": "null"}]
            },
            "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}},
            "extra": {"type": "object", "additionalProperties": True},
            "payload": {},
            "createdAt": {"type": "string", "format": "date-time"},
        },
        "additionalProperties": False,
    },
    "Status": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "name": {"type": "string"},
            "color": {"type": "string"},
        },
    },
    "Tag": {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}},
}
FIELDS = ResponseFields(
    Document({"components": {"schemas": SCHEMAS}}), {"$ref": "#/components/schemas/Lead"}
)


@pytest.mark.parametrize(
    ("path", "known"),
    [
        ("firstName", True),
        ("currentLeadStatus.name", True),
        ("tags[].name", True),
        ("tags.name", True),
        ("tags.0.name", True),
        ("state", False),
        ("status.name", False),
        ("firstName.x", False),
        ("currentLeadStatus.nmae", False),
        ("tags[].colour", False),
        ("extra.anything", None),  # additionalProperties: the schema cannot tell
        ("payload.deep.path", None),  # no type: any value
    ],
)
def test_a_path_is_known_unknown_or_left_to_the_data(path: str, known: bool | None) -> None:
    assert FIELDS.knows(path) is known


def test_the_known_fields_are_the_schemas_leaves() -> None:
    assert FIELDS.listed() == [
        "id", "firstName", "currentLeadStatus.id", "currentLeadStatus.name",
        "currentLeadStatus.color", "tags[].id", "tags[].name", "extra", "payload", "createdAt",
    ]  # fmt: skip


def test_curated_defaults_keep_what_the_schema_has_and_take_the_contracts_choice() -> None:
    defaults = [
        Column("id"),
        Column("firstName"),
        Column("state"),
        Column("status.name", header="status", color_path="status.color"),
        Column("createdAt", kind="datetime"),
    ]
    choice = [Column("id"), Column("currentLeadStatus.name"), Column("tags[].name")]

    shown = fitted(defaults, FIELDS, choice)

    assert [column.path for column in shown] == [
        "id", "firstName", "currentLeadStatus.name", "tags[].name", "createdAt",
    ]  # fmt: skip


def test_a_status_column_replaced_keeps_its_color_where_the_new_object_has_one() -> None:
    defaults = [Column("id"), Column("status.name", header="status", color_path="status.color")]

    shown = fitted(defaults, FIELDS, [Column("currentLeadStatus.name")])

    assert shown[1].path == "currentLeadStatus.name"
    assert shown[1].color_path == "currentLeadStatus.color"


@pytest.mark.parametrize(
    ("paths", "expected"),
    [
        (["id"], {"id": 1}),
        (
            ["tags[].name", "tags.id"],
            {"tags": [{"name": "a", "id": "t1"}, {"name": None, "id": "t2"}]},
        ),
        (["tags", "tags[].name"], {"tags": [{"id": "t1", "name": "a"}, {"id": "t2"}]}),
        (["tags.1.id"], {"tags": [{"id": "t2"}]}),
        (["status.name", "missing.deep"], {"status": None, "missing": None}),
        ([""], {"id": 1, "status": None, "tags": [{"id": "t1", "name": "a"}, {"id": "t2"}]}),
    ],
)
def test_projection_keeps_just_the_paths_asked_for(
    paths: list[str], expected: dict[str, Any]
) -> None:
    item = {"id": 1, "status": None, "tags": [{"id": "t1", "name": "a"}, {"id": "t2"}]}
    assert project(item, selection_of(paths)) == expected

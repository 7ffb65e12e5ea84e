"""Issue 21.6 / 23.3 (and issue 22's planted bug): a field path the schema does not list is
a typo (exit 2 with the closest names), level by level, unless that level takes other
fields (``additionalProperties`` true or a schema, or no properties listed at all).
One resolution (leadctl.contract.field_paths) for lead fields, generated verbs, import
columns and batch lines."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.contract.document import Document
from leadctl.contract.field_paths import OPEN, FieldPaths, UnknownField, steps_of
from leadctl.errors import ExitCode

CLOSED_METADATA = {
    "type": "object",
    "properties": {"sourceUrl": {"type": "string"}, "ipAddress": {"type": "string"}},
    "additionalProperties": False,
}
CONTACT = {  # lists its properties and says nothing more: the service drops others
    "type": "object",
    "properties": {"firstName": {"type": "string"}, "lastName": {"type": "string"}},
}
COMPONENTS = {
    "components": {
        "schemas": {"Metadata": CLOSED_METADATA, "Contact": CONTACT},
    }
}
OPEN_ROOT = {  # an extension-data bag: other top-level fields are kept
    "type": "object",
    "properties": {
        "metadata": {"allOf": [{"$ref": "#/components/schemas/Metadata"}]},
        "contact": {"$ref": "#/components/schemas/Contact"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "tags": {
            "type": "array",
            "items": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
        "extra": {},
    },
    "additionalProperties": {},
}


def paths(schema: dict[str, Any]) -> FieldPaths:
    return FieldPaths(Document(COMPONENTS), schema, noun="the lead")


def test_an_unknown_path_inside_a_closed_nested_object_of_an_open_root_is_refused() -> None:
    with pytest.raises(UnknownField) as refused:
        paths(OPEN_ROOT).resolve("metadata.sorceUrl")

    assert refused.value.exit_code == ExitCode.USAGE
    assert refused.value.message == "--field 'metadata.sorceUrl' is not a field of the lead"
    assert refused.value.hint == "did you mean metadata.sourceUrl?"


def test_a_level_that_lists_its_properties_without_additional_properties_is_closed() -> None:
    with pytest.raises(UnknownField) as refused:
        paths(OPEN_ROOT).resolve("contact.fistName")

    assert refused.value.hint == "did you mean contact.firstName?"


@pytest.mark.parametrize(
    "path",
    [
        "frstName",  # the root keeps other fields (additionalProperties: {})
        "contact.firstName",
        "metadata.sourceUrl",
        "labels.anything",  # a map: its keys are the data
        "extra.whatever.deep",  # an object that lists nothing
        "tags[].name",
        "tags[0].name",
        "tags[]",
        "contact[firstName]",
    ],
)
def test_listed_and_welcome_paths_resolve(path: str) -> None:
    paths(OPEN_ROOT).resolve(path)


def test_a_map_entry_takes_the_map_value_schema() -> None:
    assert paths(OPEN_ROOT).resolve("labels.campaign") == {"type": "string"}
    assert paths(OPEN_ROOT).resolve("frstName") is OPEN
    with pytest.raises(UnknownField, match=r"labels\.campaign is a string"):
        paths(OPEN_ROOT).resolve("labels.campaign.deeper")


def test_a_closed_root_refuses_a_typo_and_names_the_field_under_its_parent() -> None:
    closed = {**OPEN_ROOT}
    del closed["additionalProperties"]
    closed["properties"] = {**OPEN_ROOT["properties"], "firstName": {"type": "string"}}

    with pytest.raises(UnknownField, match="'frstName'") as typo:
        paths(closed).resolve("frstName")
    with pytest.raises(UnknownField) as moved:
        paths(closed).resolve("tags[].firstName")

    assert typo.value.hint == "did you mean firstName?"
    assert moved.value.hint == "did you mean contact.firstName, firstName?"


def test_explicitly_open_and_explicitly_closed_levels() -> None:
    open_object = {"type": "object", "properties": {"a": {}}, "additionalProperties": True}
    closed_object = {"type": "object", "properties": {}, "additionalProperties": False}

    assert paths(open_object).resolve("b") is OPEN
    with pytest.raises(UnknownField) as refused:
        paths(closed_object).resolve("b")

    assert refused.value.hint == "fields are: none listed"


def test_every_shape_of_a_polymorphic_object_is_known() -> None:
    shapes = {
        "type": "object",
        "properties": {"kind": {"type": "string"}},
        "oneOf": [
            {"type": "object", "properties": {"email": {"type": "string"}}},
            {"type": "object", "properties": {"phone": {"type": "string"}}},
        ],
    }

    paths(shapes).resolve("email")
    paths(shapes).resolve("phone")
    with pytest.raises(UnknownField):
        paths(shapes).resolve("fax")


def test_whole_values_of_batch_lines_are_checked_path_by_path() -> None:
    found = paths(OPEN_ROOT).unknown_in(
        {"contact": {"firstName": "Ada"}, "tags": [{"name": "a"}, {"nme": "b"}]}, what="field"
    )

    assert found is not None
    assert found.message == "field 'tags[].nme' is not a field of the lead"
    assert paths(OPEN_ROOT).unknown_in({"contact": {"lastName": "L"}, "x": 1}) is None


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        ("a.b", ["a", "b"]),
        ("tags[]", ["tags", "[]"]),
        ("tags[3].name", ["tags", "[]", "name"]),
        ("a[b][c]", ["a", "b", "c"]),
        ("grid[][]", ["grid", "[]", "[]"]),
    ],
)
def test_key_syntax(path: str, steps: list[str]) -> None:
    assert steps_of(path) == steps

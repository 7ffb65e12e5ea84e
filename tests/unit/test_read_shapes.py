"""A required field the read carries in another shape is derived from it (issue 21 point 5):
a list of X names from the read's X objects, a list of X ids from them, an X id from the
read's X object; what no shape gives stays missing for the caller to name."""

from __future__ import annotations

from typing import Any

import pytest

from leadctl.verbkit.read_shapes import derived_fields

READ: dict[str, Any] = {
    "defaultTags": [{"id": "t1", "name": "web"}, {"id": "t2", "name": "paid"}],
    "categories": [{"id": "c1", "name": "Auto"}],
    "user": {"id": "u1", "name": "Ada"},
    "assigned_team": {"id": "team-9", "name": "Night"},
    "labels": [],
    "owners": [{"name": "no id here"}],
}


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("defaultTagNames", ["web", "paid"]),
        ("defaultTagIds", ["t1", "t2"]),
        ("categoryIds", ["c1"]),
        ("userId", "u1"),
        ("userName", "Ada"),
        ("assigned_team_id", "team-9"),
        ("labelNames", []),
    ],
)
def test_a_required_field_is_derived_from_the_reads_objects(field: str, value: Any) -> None:
    assert derived_fields([field], READ, {}) == {field: value}


@pytest.mark.parametrize("field", ["ownerIds", "sourceId", "Ids", "tagNames", "name"])
def test_what_no_shape_gives_stays_missing(field: str) -> None:
    assert derived_fields([field], READ, {}) == {}


def test_a_field_given_or_read_as_it_is_is_left_alone() -> None:
    read = {**READ, "defaultTagIds": ["t1"]}
    assert derived_fields(["defaultTagIds", "defaultTagNames"], read, {"defaultTagNames": []}) == {}

"""Columns, dot paths and how one value is spelled for machines and for people."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from leadctl.output import Column, get_path
from leadctl.output.cells import format_datetime, human_text, machine_text
from leadctl.output.columns import choose_columns
from leadctl.util.masking import mask_secret

DOC: dict[str, Any] = {
    "id": "s1",
    "user": {"name": "Ana", "roles": ["admin", "agent"]},
    "defaultTags": [{"name": "hot"}, {"name": "web"}],
    "counts": {"0": "zero-key"},
    "empty": None,
}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("id", "s1"),
        ("user.name", "Ana"),
        ("user.roles.1", "agent"),
        ("defaultTags.0.name", "hot"),
        ("defaultTags.-1.name", "web"),
        ("defaultTags.2.name", None),
        ("defaultTags.x", None),
        ("counts.0", "zero-key"),
        ("missing", None),
        ("missing.deeper", None),
        ("id.deeper", None),
        ("empty.name", None),
    ],
)
def test_get_path(path: str, expected: Any) -> None:
    assert get_path(DOC, path) == expected


def test_empty_path_is_the_item_itself() -> None:
    assert get_path("plain", "") == "plain"
    assert Column("").title == "value"


def test_column_is_frozen_and_checks_its_kind() -> None:
    column = Column("createdAt", kind="datetime")
    with pytest.raises(dataclasses.FrozenInstanceError):
        column.path = "x"  # type: ignore[misc]
    with pytest.raises(ValueError, match="kind"):
        Column("x", kind="date")
    assert Column("user.name").title == "user.name"
    assert Column("user.name", "OWNER").title == "OWNER"


def test_requested_columns_keep_the_header_and_kind_of_a_matching_default() -> None:
    defaults = [Column("id", "ID"), Column("apiKey", "KEY", "secret")]

    assert choose_columns(None, defaults) == defaults
    assert choose_columns([" ", ""], defaults) == defaults
    assert choose_columns(["apiKey", "user.name"], defaults) == [
        Column("apiKey", "KEY", "secret"),
        Column("user.name"),
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-11-21T14:03:12Z", "2026-11-21 14:03 UTC"),
        ("2026-11-21T14:03:12.1234567Z", "2026-11-21 14:03 UTC"),
        ("2026-11-21T14:03:12.123+00:00", "2026-11-21 14:03 UTC"),
        ("2026-01-02T03:04:05+02:00", "2026-01-02 01:04 UTC"),
        ("2026-01-01T23:30:00-0130", "2026-01-02 01:00 UTC"),
        ("2026-11-21T14:03:12", "2026-11-21 14:03 UTC"),
        ("2026-11-21 14:03", "2026-11-21 14:03 UTC"),
        ("2026-11-21", "2026-11-21"),
        ("2026-13-40T00:00:00Z", "2026-13-40T00:00:00Z"),
        ("soon", "soon"),
    ],
)
def test_format_datetime(value: str, expected: str) -> None:
    assert format_datetime(value) == expected


@pytest.mark.parametrize(
    "secret",
    [
        "sk_live_9f8e7d6c5b4a39281706f4f2a",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        "short",
        "src_abc",
        "x",
    ],
)
def test_mask_secret_never_reveals_the_secret(secret: str) -> None:
    masked = mask_secret(secret)

    assert masked
    assert secret not in masked
    assert len(masked) < len(secret) or masked.endswith("••••")


def test_mask_secret_keeps_a_kind_prefix_and_for_long_values_the_last_four() -> None:
    assert mask_secret("sk_live_9f8e7d6c5b4a39281706f4f2a") == "sk_…4f2a"
    assert mask_secret("src_abc") == "src_••••"
    assert mask_secret("aB3_xyzsecretsecretsecret") == "…cret"
    assert mask_secret("abcdefghijklmnopqrstuvwxyz") == "…wxyz"
    assert mask_secret("") == ""


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, ""),
        ("text", "text"),
        (True, "true"),
        (False, "false"),
        (0, "0"),
        (3.5, "3.5"),
        # Lists as leads import reads them (a;b), JSON where that would not read back.
        (["a", "b"], "a;b"),
        ([1, 2.5, True], "1;2.5;true"),
        ([], ""),
        (["a;b", "c"], '["a;b","c"]'),
        ([" padded"], '[" padded"]'),
        (["", "x"], '["","x"]'),
        (["[x]"], '["[x]"]'),
        (["null"], '["null"]'),
        (["a", None], '["a",null]'),
        ([{"name": "hot"}], '[{"name":"hot"}]'),
        ({"k": "ü"}, '{"k":"ü"}'),
    ],
)
def test_machine_text(value: Any, expected: str) -> None:
    assert machine_text(value) == expected


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        (None, "text", ""),
        (True, "bool", "yes"),
        (False, "text", "no"),
        (["admin", "agent"], "text", "admin, agent"),
        # Objects in a table cell: a readable summary, never JSON.
        ([{"name": "hot"}, {"name": "web"}], "text", "hot, web"),
        ([{"startAt": "x", "value": 1}] * 3, "text", "3 items"),
        ({"id": "o1", "name": "Acme Inc"}, "text", "Acme Inc"),
        (
            [{"firstName": "Ada", "lastName": "L", "email": "a@x"}, {"email": "b@x"}],
            "text",
            "Ada L, b@x",
        ),
        ({"plan": "pro", "seats": 12, "trial": False}, "text", "plan: pro, seats: 12, trial: no"),
        (
            {"a": 1, "b": 2, "c": 3, "d": {"name": "x"}, "e": 5},
            "text",
            "a: 1, b: 2, c: 3, d: x, …",
        ),
        ({"at": "2026-11-21T14:03:12Z"}, "text", "at: 2026-11-21 14:03 UTC"),
        ("2026-11-21T14:03:12Z", "datetime", "2026-11-21 14:03 UTC"),
        ("2026-11-21T14:03:12Z", "text", "2026-11-21T14:03:12Z"),
        ("sk_live_9f8e7d6c5b4a39281706f4f2a", "secret", "sk_…4f2a"),
        (12, "number", "12"),
    ],
)
def test_human_text(value: Any, kind: str, expected: str) -> None:
    assert human_text(value, kind) == expected

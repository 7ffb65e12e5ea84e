"""What a TAB may offer of a service's answer: a value that would act on the terminal, or
arrive escaped as another value, is never offered (tests/shell covers the shells)."""

from __future__ import annotations

from leadctl.cli.value_completion import candidates_of


def test_a_value_holding_a_control_or_escape_character_is_not_offered() -> None:
    items = [
        {"id": "lead-1", "firstName": "Ada"},
        {"id": "lead-2\x1b]0;owned\x07", "firstName": "Eve"},
        {"id": "lead-3\x1b[2J", "firstName": "Mallory"},
        {"id": "lead-4\u202e", "firstName": "Trudy"},
        {"id": "lead-5\rrm -rf ~", "firstName": "Oscar"},
    ]
    assert candidates_of(items, "id") == [("lead-1", "Ada")]


def test_a_description_from_the_service_is_shown_escaped() -> None:
    found = candidates_of([{"id": "lead-1", "firstName": "Ada\x1b[31m"}], "id")
    assert found == [("lead-1", "Ada\\x1b[31m")]

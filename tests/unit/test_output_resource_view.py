"""One resource on a terminal without a response schema (a curated verb's answer, ``api``):
the lists are found, and their kinds read, from the data itself (issue 34)."""

from __future__ import annotations

import pytest

from leadctl.output import Column, emit_object
from leadctl.output.sparkline import SPARK_BLOCKS
from leadctl.output.units import unit_of, with_unit
from tests.support.run_context import direct_context, stdout_of

TERMINAL = {"COLUMNS": "80", "LINES": "40", "NO_COLOR": "1", "TZ": "UTC", "LEADCTL_PAGER": "cat"}
WALLET = {
    "id": "wal-1",
    "balanceAmount": 1250.5,
    "currency": "EUR",
    "owners": ["ops@example.com", "billing@example.com"],
    "transactions": [
        {"id": "tx-1", "kind": "TopUp", "amount": 100, "at": "2026-11-20T10:00:00Z"},
        {"id": "tx-2", "kind": "Sms", "amount": -0.75, "at": "2026-11-21T10:00:00Z"},
    ],
    "usage": {
        "daily": [
            {"day": "2026-11-20", "messages": 12, "deliveryRate": 0.98},
            {"day": "2026-11-21", "messages": 30, "deliveryRate": 0.9},
            {"day": "2026-11-22", "messages": 0, "deliveryRate": 1.0},
        ]
    },
}


def drawn(obj: dict[str, object], columns: list[Column]) -> str:
    ctx = direct_context(output="table", tty=True, env=TERMINAL)
    emit_object(ctx, obj, columns=columns)
    return stdout_of(ctx)


def test_a_curated_answer_shows_each_list_its_kinds_read_from_the_data() -> None:
    screen = drawn(WALLET, [Column("id"), Column("balanceAmount", kind="number")])

    lines = screen.splitlines()
    assert "balanceAmount  1,250.50 EUR" in lines
    assert "owners         ops@example.com, billing@example.com" in lines
    assert any(line.startswith("transactions · 2 ") for line in lines)
    header = lines[lines.index(next(x for x in lines if x.startswith("transactions · "))) + 1]
    assert header.split() == ["id", "kind", "at", "amount"]  # the time first, as listings
    assert "tx-2  Sms" in screen and "2026-11-21 10:00 UTC" in screen
    messages = next(line for line in lines if line.startswith("messages "))
    assert set(messages.split()[1]) <= set(SPARK_BLOCKS)
    assert messages.endswith("min 0 · max 30 · last 0")
    rate = next(line for line in lines if line.startswith("deliveryRate "))
    assert rate.endswith("min 90% · max 100% · last 100%")
    assert "not shown: currency (--columns currency, or -o json)" in lines


def test_an_empty_list_is_said_to_be_empty_once() -> None:
    screen = drawn(
        {"id": "wal-1", "transactions": [], "owners": [], "manager": None},
        [Column("id"), Column("owners"), Column("manager.name")],
    )

    lines = screen.splitlines()
    assert "transactions: none" in lines
    # a column already shows the empty plain list and the null object: no second word
    assert "owners" in lines and not any("owners:" in line for line in lines)
    assert not any(line.startswith("not shown") for line in lines)


def test_a_table_that_is_not_on_a_terminal_is_todays_field_value_table() -> None:
    ctx = direct_context(output="table", tty=False, env=TERMINAL)
    emit_object(ctx, WALLET, columns=[Column("id"), Column("balanceAmount", kind="number")])

    assert stdout_of(ctx) == "id             wal-1\nbalanceAmount  1250.5\n"


@pytest.mark.parametrize(
    ("name", "schema", "values", "value", "shown"),
    [
        ("conversionRate", None, (0.23,), 0.23, "23%"),
        ("conversionRate", {"maximum": 100}, (0.5,), 0.5, "0.5%"),
        ("optOutRatePercent", None, (1.5,), 1.5, "1.5%"),
        ("failureRate", None, (12.0, 40.0), 12.0, "12%"),
        ("costCents", None, (), 1999, "19.99"),
        ("totalPrice", None, (), 1234.5, "1,234.50"),
        ("share", {"format": "percent"}, (), 7, "7%"),
        ("leads", None, (), 12, None),
        ("feedbackCount", None, (), 3, None),  # "fee" is a word of a name, not a part
        ("rateLimit", None, (), 30, None),
        ("sms_cost", None, (), 0.5, "0.50"),
    ],
)
def test_percentages_and_money_read_as_such_by_schema_or_name(
    name: str, schema: dict[str, object] | None, values: tuple[float], value: float, shown: str
) -> None:
    assert with_unit(value, unit_of(name, schema, values)) == shown


def test_names_and_values_from_the_service_are_drawn_escaped() -> None:
    """A list's path is its title and a series' field its label: a hostile service's names
    reach the terminal escaped, as its values in table cells do."""
    hostile = "\x1b]0;owned\x07\x1b[2J\u202e"
    answer = {
        "id": "w" + hostile,
        "note" + hostile: "v" + hostile,
        "tags" + hostile: ["a" + hostile, "b"],
        "items" + hostile: [{"id": "i1", "label" + hostile: "l" + hostile}],
        "trend" + hostile: [
            {"at": "2026-11-20T00:00:00Z", "count" + hostile: 3},
            {"at": "2026-11-21T00:00:00Z", "count" + hostile: 5},
        ],
    }
    screen = drawn(answer, [Column("id")])
    assert not any(c in screen for c in ("\x1b", "\x07", "\u202e"))
    assert "items\\x1b]0;owned\\x07\\x1b[2J\\u202e · 1" in screen

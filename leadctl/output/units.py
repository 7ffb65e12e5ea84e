"""What a number is, where the schema or the field's name says so: a percentage or money.

``conversionRate`` 0.23 reads ``23%``, ``optOutRatePercent`` 1.5 reads ``1.5%``,
``amount`` 1234.5 reads ``1,234.50`` (``1,234.50 USD`` beside a ``currency`` field). Only
for people's views: the machine formats print the numbers as received.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal

Unit = Literal["percent", "fraction", "money", "cents"]

PERCENT_ENDINGS = ("percent", "percentage", "pct")
RATE_ENDINGS = ("rate", "ratio")
MONEY_WORDS = ("amount", "cost", "price", "spend", "spent", "revenue", "balance", "fee")
CENTS_ENDINGS = ("cents", "minor")
PERCENT_FORMATS = frozenset({"percent", "percentage"})
MONEY_FORMATS = frozenset({"money", "currency"})


def unit_of(name: str, schema: Mapping[str, Any] | None, values: Iterable[Any] = ()) -> Unit | None:
    """The unit of a numeric field by its schema (``format``, a ``maximum`` of 1) or
    name; a rate with no say from the schema is a fraction when every value is within
    0..1 (``0.23``), else already a percentage (``23``)."""
    words = _words(name)
    last = words[-1] if words else ""
    fmt = str((schema or {}).get("format") or "").lower()
    if fmt in PERCENT_FORMATS or last in PERCENT_ENDINGS:
        return "percent"
    if fmt in MONEY_FORMATS or any(word in MONEY_WORDS for word in words):
        return "cents" if last in CENTS_ENDINGS else "money"
    if last not in RATE_ENDINGS:
        return None
    maximum = (schema or {}).get("maximum")
    if isinstance(maximum, (int, float)):
        return "fraction" if maximum <= 1 else "percent"
    numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return "fraction" if numbers and all(0 <= v <= 1 for v in numbers) else "percent"


def as_percent(value: float, unit: Unit | None) -> float:
    """A value of a percent or fraction unit as a percentage (0.23 -> 23)."""
    return value * 100 if unit == "fraction" else value


def with_unit(value: Any, unit: Unit | None, *, currency: str | None = None) -> str | None:
    """The number as it reads in its unit (``23%``, ``1,234.50 USD``); None when it is
    not a number or has no unit (shown as any other value)."""
    if unit is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if unit in ("percent", "fraction"):
        return f"{_trimmed(as_percent(value, unit))}%"
    amount = value / 100 if unit == "cents" else value
    text = f"{amount:,.2f}"
    return f"{text} {currency}" if currency else text


def currency_beside(obj: Mapping[str, Any]) -> str | None:
    """The ISO 4217 code an object gives its amounts (a ``currency`` field), if any."""
    for key in ("currency", "currencyCode"):
        code = obj.get(key)
        if isinstance(code, str) and len(code.strip()) == 3 and code.strip().isalpha():
            return code.strip().upper()
    return None


def _words(name: str) -> list[str]:
    """``optOutRatePercent`` as ``[opt, out, rate, percent]`` (snake_case too)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    return spaced.lower().split()


def _trimmed(number: float) -> str:
    """At most one decimal, none when it is .0: ``23``, ``4.5``, ``1,250``."""
    text = f"{number:,.1f}"
    return text[:-2] if text.endswith(".0") else text

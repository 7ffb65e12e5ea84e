"""One value as text: exact for machine formats (csv/tsv/value), readable for people (table)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timezone, tzinfo
from typing import Any

from leadctl.inputs.datetimes import format_moment
from leadctl.output.columns import Column, get_path
from leadctl.output.json_out import COMPACT_JSON
from leadctl.util.isotime import parse_timestamp
from leadctl.util.masking import mask_secret
from leadctl.util.secret_fields import mask_members


def format_datetime(value: str, zone: tzinfo | None = timezone.utc) -> str:
    """An ISO 8601 timestamp as ``2026-11-21 14:03 UTC``, in ``zone`` (None: the
    system's; commands pass :func:`leadctl.inputs.datetimes.display_zone`).

    The zone is spelled out so nobody has to guess. Anything that is not a timestamp is
    shown as received.
    """
    moment = parse_timestamp(value, time_required=True)
    return value if moment is None else format_moment(moment, zone)


# What `leads import` reads as a list: plain values joined by ";" (leadctl.inputs.lead_fields).
LIST_SEPARATOR = ";"


def machine_text(value: Any) -> str:
    """A value for csv/tsv/value, as `leads import` reads it back: strings as received,
    JSON spelling for numbers and booleans, a list of plain values as ``a;b`` (empty when
    empty), objects and other lists as compact JSON, missing as empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, list):
        joined = _separated(value)
        if joined is not None:
            return joined
    return COMPACT_JSON.encode(value)


def _separated(values: list[Any]) -> str | None:
    """``a;b`` when reading it back gives these values again, else None (then JSON, which
    import reads too): no element holding ";", blank, padded or null-like, and not read
    as JSON (a first "[" or "{")."""
    texts = []
    for value in values:
        if isinstance(value, str):
            if not value or value != value.strip() or LIST_SEPARATOR in value or value == "null":
                return None
            texts.append(value)
        elif isinstance(value, (int, float)):
            texts.append(machine_text(value))
        else:
            return None
    joined = LIST_SEPARATOR.join(texts)
    return None if joined[:1] in ("[", "{") else joined


def machine_cell(column: Column) -> Callable[[Any], str]:
    """The function that turns one item into this column's csv/tsv/value cell.

    Secrets are masked here too: the service's JSON (``-o json``) is the one place a
    secret field is printed in full.
    """
    parts = column.parts
    if column.kind == "secret":
        return lambda item: _masked(get_path(item, parts))
    if len(parts) != 1:
        return lambda item: machine_text(get_path(item, parts))
    key = parts[0]

    # The common case, a top-level string field, without the general path walk: this
    # runs once per cell of every row.
    def top_level(item: Any) -> str:
        value = item.get(key) if type(item) is dict else get_path(item, parts)
        return value if type(value) is str else machine_text(value)

    return top_level


def _masked(value: Any) -> str:
    # A boolean beside a secret (hasApiKey) says nothing of it.
    return machine_text(value) if isinstance(value, bool) else mask_secret(machine_text(value))


def human_text(value: Any, kind: str, zone: tzinfo | None = timezone.utc) -> str:
    """A value for people, without styling: readable times (in ``zone``), yes/no, masked
    secrets, lists of plain values joined with commas."""
    if value is None:
        return ""
    if kind == "secret" and not isinstance(value, bool):
        return _masked(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return format_datetime(value, zone) if kind == "datetime" else value
    if isinstance(value, list) and all(_is_plain(element) for element in value):
        return ", ".join(
            human_text(element, kind, zone) for element in value if element is not None
        )
    # An object shown whole may hold a secret (a source's intake key inside it).
    masked = mask_members(value, mask=lambda secret: mask_secret(str(secret)))
    if isinstance(masked, dict):
        return summary(masked, zone)
    if isinstance(masked, list):
        return _list_summary(masked, zone)
    return machine_text(masked)


def _is_plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


# The field that names an object, most telling first (a lead status, a user); a person's
# first and last name come before a number or an e-mail address.
NAME_KEYS = ("name", "displayName", "fullName", "title", "label", "number", "email")
SHOWN_PAIRS = 4


def summary(obj: dict[str, Any], zone: tzinfo | None = timezone.utc) -> str:
    """An object in one readable cell, never its JSON: its name where it has one
    (``Acme Inc``), else its first plain fields (``plan: pro, seats: 12``)."""
    named = _name_of(obj)
    if named:
        return named
    pairs = []
    for key, inner in obj.items():
        if inner is None or inner == [] or inner == {}:
            continue
        if isinstance(inner, dict):
            text = summary(inner, zone)
        elif isinstance(inner, list):
            text = _list_summary(inner, zone)
        else:
            text = human_text(inner, "datetime" if isinstance(inner, str) else "text", zone)
        pairs.append(f"{key}: {text}")
        if len(pairs) == SHOWN_PAIRS:
            break
    more = len([v for v in obj.values() if v not in (None, [], {})]) > len(pairs)
    return ", ".join(pairs) + (", …" if more else "")


def _list_summary(values: list[Any], zone: tzinfo | None) -> str:
    """Named objects by their names; anything else by how many there are."""
    names = [summary(value, zone) for value in values if isinstance(value, dict)]
    if len(names) == len(values) and all(_named(value) for value in values):
        return ", ".join(names)
    return f"{len(values)} item{'' if len(values) == 1 else 's'}"


def _name_of(obj: dict[str, Any]) -> str:
    """What names the object (a person by first and last name), or empty."""
    for key in NAME_KEYS[:5]:
        named = obj.get(key)
        if isinstance(named, str) and named:
            return named
    parts = [obj.get("firstName"), obj.get("lastName")]
    person = " ".join(part for part in parts if isinstance(part, str) and part)
    if person:
        return person
    for key in NAME_KEYS[5:]:
        named = obj.get(key)
        if isinstance(named, str) and named:
            return named
    return ""


def _named(obj: dict[str, Any]) -> bool:
    return bool(_name_of(obj))

"""One value as text: exact for machine formats (csv/tsv/value), readable for people (table)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timezone, tzinfo
from typing import Any

from leadctl.datetimes import format_moment
from leadctl.output.columns import Column, get_path
from leadctl.output.json_out import COMPACT_JSON
from leadctl.util.isotime import parse_timestamp
from leadctl.util.masking import mask_secret
from leadctl.util.secret_fields import mask_members


def format_datetime(value: str, zone: tzinfo | None = timezone.utc) -> str:
    """An ISO 8601 timestamp as ``2026-11-21 14:03 UTC``, in ``zone`` (None: the
    system's; commands pass :func:`leadctl.datetimes.display_zone`).

    The zone is spelled out so nobody has to guess. Anything that is not a timestamp is
    shown as received.
    """
    moment = parse_timestamp(value, time_required=True)
    return value if moment is None else format_moment(moment, zone)


def machine_text(value: Any) -> str:
    """A value for csv/tsv/value: strings as received, JSON spelling for everything else,
    nested objects and lists as compact JSON, missing as empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    return COMPACT_JSON.encode(value)


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
    return machine_text(mask_members(value, mask=lambda secret: mask_secret(str(secret))))


def _is_plain(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))

"""Typed ``KEY=VALUE`` fields (``api -f/-F``, ``leads create --field``) and ``--data`` input.

``-F`` converts ``true``, ``false``, ``null``, integers, decimals, JSON arrays and objects,
and reads ``@FILE`` (``@-`` for stdin); ``-f`` keeps every value a string. Keys nest with
``a.b`` or ``a[b]``, and ``a[]`` appends to a list.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TextIO

from leadctl.errors import UsageError
from leadctl.util.jsontext import MAX_INTEGER_DIGITS, loads_input

_INTEGER = re.compile(r"^-?(0|[1-9][0-9]*)$")
_DECIMAL = re.compile(r"^-?(0|[1-9][0-9]*)\.[0-9]+([eE][-+]?[0-9]+)?$")
_KEY_PART = re.compile(r"\[([^\[\]]*)\]")


def split_field(raw: str, *, flag: str) -> tuple[str, str]:
    key, sep, value = raw.partition("=")
    if not sep or not key.strip():
        raise UsageError(f"{flag} {raw!r}: expected KEY=VALUE")
    return key.strip(), value


def typed_value(value: str, *, key: str, stdin: TextIO | None) -> Any:
    if value.startswith("@"):
        return read_source(value[1:], what=f"field {key!r}", stdin=stdin).rstrip("\n")
    if value in ("true", "false"):
        return value == "true"
    if value == "null":
        return None
    if _INTEGER.match(value):
        digits = len(value.lstrip("-"))
        if MAX_INTEGER_DIGITS and digits > MAX_INTEGER_DIGITS:
            raise UsageError(
                f"field {key!r}: a number of {digits} digits is longer than "
                f"{MAX_INTEGER_DIGITS}; pass it as text with -f"
            )
        return int(value)
    if _DECIMAL.match(value):
        number = float(value)
        if not math.isfinite(number):
            raise UsageError(
                f"field {key!r}: {value} is beyond what a double-precision number holds"
            )
        return number
    if value[:1] in ("[", "{"):
        try:
            return loads_input(value)
        except ValueError as error:
            raise UsageError(f"field {key!r}: invalid JSON: {error}") from None
    return value


def _key_path(key: str) -> list[str]:
    head, _, rest = key.partition("[")
    parts = [p for p in head.split(".")]
    if rest:
        tail = "[" + rest
        if _KEY_PART.sub("", tail):
            raise UsageError(f"field key {key!r}: unbalanced brackets")
        parts += _KEY_PART.findall(tail)
    if any(p == "" for p in parts[:-1]) or (parts[-1] == "" and len(parts) == 1):
        raise UsageError(f"field key {key!r}: empty name")
    return parts


def _assign(target: dict[str, Any], path: list[str], value: Any, key: str) -> None:
    node: Any = target
    for index, part in enumerate(path):
        last = index == len(path) - 1
        next_is_append = not last and path[index + 1] == ""
        if part == "":
            if not isinstance(node, list):
                raise UsageError(f"field key {key!r}: [] used on a non-list")
            node.append(value)
            return
        if not isinstance(node, dict):
            raise UsageError(f"field key {key!r}: {part!r} is inside a non-object")
        if last:
            node[part] = value
            return
        default: Any = [] if next_is_append else {}
        node = node.setdefault(part, default)
        if next_is_append and not isinstance(node, list):
            raise UsageError(f"field key {key!r}: {part!r} is not a list")


def build_fields(
    raw_fields: Iterable[str] = (),
    typed_fields: Iterable[str] = (),
    *,
    stdin: TextIO | None = None,
    raw_flag: str = "-f",
    typed_flag: str = "-F",
    json_fields: Iterable[tuple[str, str]] = (),
) -> dict[str, Any]:
    """The JSON object described by the fields, in the order given; ``json_fields`` are
    (KEY, JSON text) pairs, HTTPie's ``key:=json`` items."""
    result: dict[str, Any] = {}
    for raw in raw_fields:
        key, value = split_field(raw, flag=raw_flag)
        _assign(result, _key_path(key), value, key)
    for raw in typed_fields:
        key, value = split_field(raw, flag=typed_flag)
        _assign(result, _key_path(key), typed_value(value, key=key, stdin=stdin), key)
    for key, text in json_fields:
        _assign(result, _key_path(key), parse_json_text(text, what=f"{key}:="), key)
    return result


def read_source(source: str, *, what: str, stdin: TextIO | None) -> str:
    """Text from ``-`` (stdin) or a file path, with a clear error when unreadable."""
    if source == "-":
        if stdin is None:
            raise UsageError(f"{what}: stdin is not available")
        return stdin.read()
    try:
        return Path(source).expanduser().read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"{what}: cannot read {source!r}: {reason}") from None


def parse_json_text(text: str, *, what: str) -> Any:
    try:
        return loads_input(text)
    except ValueError as error:
        raise UsageError(f"{what}: invalid JSON: {error}") from None


def load_data_option(value: str, *, stdin: TextIO | None, flag: str = "--data") -> Any:
    """``--data JSON|@FILE|-``: the parsed JSON value."""
    if value == "-":
        text = read_source("-", what=flag, stdin=stdin)
    elif value.startswith("@"):
        text = read_source(value[1:], what=flag, stdin=stdin)
    else:
        text = value
    return parse_json_text(text, what=flag)


def merge_over(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """``top`` merged over ``base``: nested objects merge, anything else is replaced."""
    merged = dict(base)
    for key, value in top.items():
        below = merged.get(key)
        if isinstance(below, Mapping) and isinstance(value, Mapping):
            merged[key] = merge_over(below, value)
        else:
            merged[key] = value
    return merged

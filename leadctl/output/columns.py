"""Which fields a renderer shows: :class:`Column`, dot-path lookup, ``--columns`` resolution."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from leadctl.util.secret_fields import is_secret

KINDS = frozenset({"text", "datetime", "bool", "number", "color", "secret"})


@dataclass(frozen=True)
class Column:
    """One field of a resource as shown by table/csv/tsv/value.

    ``path`` is a dot path into the service's JSON (``user.name``, ``defaultTags.0.name``);
    the empty path means the item itself, for lists of plain values.
    """

    path: str
    header: str | None = None
    kind: str = "text"
    # In a table on a color terminal the text takes the color found at this path of the
    # same item (a lead's status name in its status's color).
    color_path: str | None = None
    # Never left out of a table for want of room, like a column asked for with --columns
    # (an id that is not the first column).
    keep: bool = False
    # Never shortened in a table, however long (an id, a phone number): a cut one cannot
    # be copied.
    whole: bool = False

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown column kind {self.kind!r} (one of {sorted(KINDS)})")

    @property
    def title(self) -> str:
        if self.header is not None:
            return self.header
        return self.path or "value"

    @property
    def parts(self) -> tuple[str, ...]:
        return split_path(self.path)


EACH = "[]"


def split_path(path: str) -> tuple[str, ...]:
    """``tags[].name`` as ``("tags", "[]", "name")``; the empty path is the item itself."""
    parts: list[str] = []
    for part in path.split(".") if path else ():
        if part.endswith(EACH) and part != EACH:
            parts.extend((part[: -len(EACH)], EACH))
        else:
            parts.append(part)
    return tuple(parts)


def get_path(obj: Any, path: str | Sequence[str]) -> Any:
    """The value at a dot path, or None when any step is missing.

    A step into a list is an index (``0`` first, ``-1`` last); ``[]`` (``tags[].name``),
    or a name that is not an index (``tags.name``), takes the rest of the path in every
    element and gives the list of what it found. A step into anything else that is not
    a dict is missing.
    """
    parts = split_path(path) if isinstance(path, str) else tuple(path)
    current = obj
    for position, part in enumerate(parts):
        if isinstance(current, dict):
            if part not in current:
                return None
            current = current[part]
        elif isinstance(current, list):
            if part == EACH:
                return _each(current, parts[position + 1 :])
            try:
                current = current[int(part)]
            except IndexError:
                return None
            except ValueError:
                return _each(current, parts[position:])
        else:
            return None
    return current


def _each(elements: list[Any], rest: Sequence[str]) -> list[Any] | None:
    """The rest of a path in every element; None when no element has it."""
    found = [get_path(element, rest) for element in elements]
    return found if not found or any(value is not None for value in found) else None


def path_known(obj: Any, parts: Sequence[str]) -> bool:
    """Whether the data has the field ``parts`` names: False only when an object lacks a
    step's key or a plain value is stepped into. A null or an empty list on the way
    cannot tell, so it counts as known."""
    current = obj
    for position, part in enumerate(parts):
        if current is None:
            return True
        if isinstance(current, dict):
            if part not in current:
                return False
            current = current[part]
        elif isinstance(current, list):
            if part != EACH and part.lstrip("-").isdigit():
                try:
                    current = current[int(part)]
                except IndexError:
                    return True
                continue
            rest = parts[position + 1 :] if part == EACH else parts[position:]
            elements = [element for element in current if element is not None]
            return not elements or any(path_known(element, rest) for element in elements)
        else:
            return False
    return True


def known_paths(sample: Any, *, depth: int = 3) -> list[str]:
    """The field paths of one item, leaves only, for the hint of a mistyped --columns:
    ``status.name``, ``tags[].name``."""
    found: list[str] = []

    def walk(value: Any, prefix: str, level: int) -> None:
        if isinstance(value, list):
            objects = [element for element in value if isinstance(element, dict)]
            if objects and level < depth:
                keys: dict[str, Any] = {}
                for element in objects:
                    for key, inner in element.items():
                        keys.setdefault(key, inner)
                for key, inner in keys.items():
                    walk(inner, f"{prefix}[].{key}", level + 1)
                return
        if isinstance(value, dict) and value and level < depth:
            for key, inner in value.items():
                walk(inner, f"{prefix}.{key}" if prefix else str(key), level + 1)
            return
        if prefix:
            found.append(prefix)

    walk(sample, "", 0)
    return found


def choose_columns(requested: Sequence[str] | None, defaults: Sequence[Column]) -> list[Column]:
    """The columns to render: ``--columns`` paths when given, else the command's defaults.

    A requested path that a default column also names keeps that column's header and
    kind, so ``--columns apiKey`` is still masked and ``--columns createdAt`` still
    reads as a time.
    """
    wanted = [path.strip() for path in requested or () if path.strip()]
    if not wanted:
        return list(defaults)
    # A default column's table header is accepted too: a table says `processing`, so
    # `--columns processing` must mean that column (csv headers are the paths).
    known = {column.title: column for column in defaults}
    known.update({column.path: column for column in defaults})
    return [known.get(path) or column_for(path) for path in wanted]


def column_for(path: str) -> Column:
    """A column for a field nothing else describes: masked when the field's name says it
    holds a secret (``--columns apiKey``), text otherwise."""
    leaf = next((part for part in reversed(split_path(path)) if part != EACH), "")
    return Column(path, kind="secret" if leaf and is_secret(leaf) else "text")


def infer_columns(sample: Any) -> list[Column]:
    """Columns for output that came with none (raw or generated commands): the top-level
    fields of the first item in the service's order, or the item itself for plain values."""
    if isinstance(sample, dict):
        return [column_for(str(key)) for key in sample]
    return [Column("")]


def columns_from(entries: Sequence[Sequence[str]]) -> list[Column]:
    """Columns of the contract's compiled choice (:mod:`leadctl.contract.index`): entries
    [path, kind], with "whole" third for ids and phone numbers, which a table never cuts."""
    return [Column(path, kind=kind, whole="whole" in flags) for path, kind, *flags in entries]

"""Which fields a renderer shows: :class:`Column`, dot-path lookup, ``--columns`` resolution."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

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
        return tuple(self.path.split(".")) if self.path else ()


def get_path(obj: Any, path: str | Sequence[str]) -> Any:
    """The value at a dot path, or None when any step is missing.

    A step into a list is an index (``0`` first, ``-1`` last); a step into anything
    else that is not a dict is missing.
    """
    if isinstance(path, str):
        parts: Sequence[str] = path.split(".") if path else ()
    else:
        parts = path
    current = obj
    for part in parts:
        if isinstance(current, dict):
            if part not in current:
                return None
            current = current[part]
        elif isinstance(current, list):
            try:
                current = current[int(part)]
            except (ValueError, IndexError):
                return None
        else:
            return None
    return current


def choose_columns(requested: Sequence[str] | None, defaults: Sequence[Column]) -> list[Column]:
    """The columns to render: ``--columns`` paths when given, else the command's defaults.

    A requested path that a default column also names keeps that column's header and
    kind, so ``--columns apiKey`` is still masked and ``--columns createdAt`` still
    reads as a time.
    """
    wanted = [path.strip() for path in requested or () if path.strip()]
    if not wanted:
        return list(defaults)
    known = {column.path: column for column in defaults}
    return [known.get(path) or Column(path) for path in wanted]


def infer_columns(sample: Any) -> list[Column]:
    """Columns for output that came with none (raw or generated commands): the top-level
    fields of the first item in the service's order, or the item itself for plain values."""
    if isinstance(sample, dict):
        return [Column(str(key)) for key in sample]
    return [Column("")]

"""Flags that set a field of a request body, marked on their Options field.

``Annotated[str | None, typer.Option("--notes", ...), BodyFlag("--notes")] = None`` declares
the flag, where its value goes (``notes``: the flag in camelCase unless ``path`` says
otherwise) and which flag an error about that field names, in one place. Typer ignores the
marker; ``given_body_flags`` reads it.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


@dataclass(frozen=True)
class BodyFlag:
    """The Options field is the value of ``flag``, sent as the body field ``path``."""

    flag: str
    path: str = ""

    @property
    def field(self) -> str:
        """The body field: ``path``, else the flag in camelCase (--follow-up-status:
        followUpStatus)."""
        if self.path:
            return self.path
        first, *rest = self.flag.removeprefix("--").split("-")
        return first + "".join(word.capitalize() for word in rest)

    def as_typed(self, value: Any) -> str:
        """The flag as the operator typed it for ``value``: ``--no-x`` for a switch's False."""
        return "--no-" + self.flag.removeprefix("--") if value is False else self.flag


def body_flags(options: type[DataclassInstance]) -> dict[str, BodyFlag]:
    """Options field name -> its BodyFlag, in declaration order."""
    hints = typing.get_type_hints(options, include_extras=True)
    found: dict[str, BodyFlag] = {}
    for field in dataclasses.fields(options):
        for meta in getattr(hints[field.name], "__metadata__", ()):
            if isinstance(meta, BodyFlag):
                found[field.name] = meta
    return found


def field_flags(options: type[DataclassInstance]) -> dict[str, str]:
    """Body field -> the flag that sets it, for errors naming what to give."""
    return {flag.field: flag.flag for flag in body_flags(options).values()}


def given_body_flags(opts: DataclassInstance) -> dict[str, tuple[BodyFlag, Any]]:
    """Options field name -> (its BodyFlag, value) of the body flags given (not None, not
    an empty repeat)."""
    given = {}
    for name, flag in body_flags(type(opts)).items():
        value = getattr(opts, name)
        if value is not None and value != ():
            given[name] = (flag, value)
    return given

"""Flags that set a field of a request body, marked on their Options field.

``Annotated[str | None, typer.Option("--notes", ...), BodyFlag()] = None`` declares the flag
once: the marker says its value goes to the body (``notes``: the flag in camelCase unless
``path`` says otherwise), and errors about that field name the flag the ``typer.Option``
beside it declares. Typer ignores the marker; ``body_flags`` reads both.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


@dataclass(frozen=True)
class BodyFlag:
    """The Options field is the value of ``flag``, sent as the body field ``path``.

    Written as ``BodyFlag()`` or ``BodyFlag(path=...)``; :func:`body_flags` fills ``flag`` in
    from the field's ``typer.Option``."""

    path: str = ""
    flag: str = ""

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
    """Options field name -> its BodyFlag (its flag filled in), in declaration order."""
    hints = typing.get_type_hints(options, include_extras=True)
    found: dict[str, BodyFlag] = {}
    for field in dataclasses.fields(options):
        metadata = getattr(hints[field.name], "__metadata__", ())
        for meta in metadata:
            if isinstance(meta, BodyFlag):
                flag = _long_flag(metadata)
                if flag is None:
                    raise TypeError(f"{options.__name__}.{field.name}: a BodyFlag needs a --flag")
                found[field.name] = dataclasses.replace(meta, flag=flag)
    return found


def _long_flag(metadata: tuple[Any, ...]) -> str | None:
    """The first long flag a ``typer.Option`` beside the marker declares (``--x`` of
    ``"--x/--no-x"``). In ``Annotated``, Typer reads the option's first argument as a flag."""
    options = [meta for meta in metadata if isinstance(meta, typer.models.OptionInfo)]
    decls = [decl for o in options for decl in (o.default, *(o.param_decls or ()))]
    names = [name.strip() for decl in decls if isinstance(decl, str) for name in decl.split("/")]
    return next((name for name in names if name.startswith("--")), None)


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

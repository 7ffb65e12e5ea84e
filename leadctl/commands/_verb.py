"""A verb declared once: its Options dataclass, whose fields carry their Typer parameter
(``Annotated[str | None, typer.Option("--notes", help=...)] = None``), is its command line.

``command = verb_command(Options, run, help=HELP)`` is the function Typer registers: its
signature is derived from the fields (Typer reads ``inspect.signature``, which honours
``__signature__``), and calling it builds ``Options(**values)`` and runs ``run(opts, ctx)``.
So adding a flag is adding a field. A value converted before Options is converted by its
field's own ``typer.Option(parser=...)``, never by the wrapper.

A repeatable flag is a ``tuple[X, ...]`` field (immutable, default ``()``); Typer takes
repeatable options as lists, so the command line declares ``list[X] | None`` for it and the
wrapper hands Options a tuple. Flags several verbs share (paging) are a dataclass of their
own, declared once the same way, and a field of that type in Options.

A field that is no flag but what the invocation already holds (the active contract's
command tree) carries ``FromInvocation(read)`` instead of a Typer parameter: the wrapper
fills it with ``read(typer_ctx)``, and ``run(opts, ctx)`` called directly takes it as given.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, TypeVar

import typer

from leadctl.commands._common import get_context

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from leadctl.context import Context

OptionsT = TypeVar("OptionsT", bound="DataclassInstance")

# The wrapper's own first parameter: Typer passes the click context under this name.
_TYPER_CTX = "typer_ctx"


class FromInvocation(NamedTuple):
    """The metadata of a field that is no flag: ``read(typer_ctx)`` is its value."""

    read: Callable[[Any], Any]


def verb_command(
    options: type[OptionsT],
    run: Callable[[OptionsT, Context], None],
    *,
    help: str,
) -> Callable[..., None]:
    """The Typer callback of a verb whose command line is ``options``' fields; ``help`` is
    the verb's help (what a docstring would be). Its module names it ``command``: the verb's
    name is written once, in its group's table (leadctl/cli/verb_table.py)."""
    shape = _Shape.of(options)
    parameters = [
        inspect.Parameter(
            _TYPER_CTX, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context
        ),
        *shape.parameters(),
    ]

    def command(typer_ctx: typer.Context, **values: Any) -> None:
        run(shape.build(values, typer_ctx), get_context(typer_ctx))

    signature = inspect.Signature(parameters)  # a name declared twice is a ValueError here
    command.__signature__ = signature  # type: ignore[attr-defined]
    # Typer resolves annotations it does not find in Annotated from here: keep both alike.
    command.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": None}
    command.__name__ = command.__qualname__ = "command"
    command.__doc__ = help
    command.__module__ = options.__module__
    command.options = options  # type: ignore[attr-defined]  # what declared_options reads
    return command


def declared_options(callback: Any) -> type[DataclassInstance] | None:
    """The Options a callback was made from by verb_command; None for one written by hand."""
    return getattr(callback, "options", None)


@dataclass(frozen=True)
class _Shape:
    """How a dataclass's fields map to parameters: a repeatable flag is a tuple field; a
    field whose type is itself such a dataclass, built by default (``paging: Paging =
    field(default_factory=Paging)``), is a group of flags several verbs share, whose
    fields are parameters of the verb."""

    options: type[DataclassInstance]
    hints: dict[str, Any]
    groups: dict[str, _Shape]

    @classmethod
    def of(cls, options: type[DataclassInstance]) -> _Shape:
        hints = typing.get_type_hints(options, include_extras=True)
        groups = {
            field.name: cls.of(hints[field.name])
            for field in dataclasses.fields(options)
            if dataclasses.is_dataclass(hints[field.name])
            and field.default_factory is not dataclasses.MISSING
        }
        return cls(options, hints, groups)

    def parameters(self) -> Iterator[inspect.Parameter]:
        for field in dataclasses.fields(self.options):
            if field.name in self.groups:
                yield from self.groups[field.name].parameters()
                continue
            if _from_invocation(self.hints[field.name]) is not None:
                continue
            annotation, default = self.hints[field.name], field.default
            if _is_repeated(annotation):
                annotation, default = _as_list(annotation), None
            if default is dataclasses.MISSING:
                default = inspect.Parameter.empty
            yield inspect.Parameter(
                field.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )

    def build(self, values: dict[str, Any], typer_ctx: Any) -> Any:
        given: dict[str, Any] = {}
        for field in dataclasses.fields(self.options):
            derived = _from_invocation(self.hints[field.name])
            if field.name in self.groups:
                given[field.name] = self.groups[field.name].build(values, typer_ctx)
            elif derived is not None:
                given[field.name] = derived.read(typer_ctx)
            elif _is_repeated(self.hints[field.name]):
                given[field.name] = tuple(values[field.name] or ())
            else:
                given[field.name] = values[field.name]
        return self.options(**given)


def _is_repeated(annotation: Any) -> bool:
    base = typing.get_args(annotation)[0] if _is_annotated(annotation) else annotation
    return typing.get_origin(base) is tuple


def _as_list(annotation: Any) -> Any:
    """``Annotated[tuple[X, ...], meta]`` as ``Annotated[list[X] | None, meta]``."""
    base, *metadata = typing.get_args(annotation)
    (item, _ellipsis) = typing.get_args(base)
    arguments = (list[item] | None, *metadata)  # type: ignore[valid-type]
    return Annotated[arguments]


def _from_invocation(annotation: Any) -> FromInvocation | None:
    if not _is_annotated(annotation):
        return None
    return next((m for m in annotation.__metadata__ if isinstance(m, FromInvocation)), None)


def _is_annotated(annotation: Any) -> bool:
    return typing.get_origin(annotation) is Annotated

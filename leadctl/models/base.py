"""The lenient base model and the field types the resource models are written with.

A resource model is for reading: views draw whatever the service sent and must never
crash on it (``-o json`` would print the same answer happily). So each field type below
says what a value of the wrong JSON type becomes, instead of failing validation:

- :data:`Text`: a string as sent; a number or boolean as its text (``7``, ``True``:
  what the views printed before the models); an object or array reads as absent (it was
  printed as a Python repr, which helped nobody).
- :data:`String`: a string only, anything else absent: for a field a view replaces by
  another one when it is not text (a traffic bucket's label by its start time).
- :data:`Number`: a JSON number (not a boolean, which JSON keeps apart), as a float;
  anything else reads as absent, which views show as a dash or "not reported".
- :data:`Integer`: like Number, for integer fields a view does not draw; a non-integral
  number reads as absent.
- :data:`Flag`: ``true``/``false``; anything else reads as absent ("not reported"),
  rather than as its truthiness (``"no"`` is not yes).
- :data:`Instant`: a date-time kept as the service's text (Text's rules): views parse
  it where they show it (:mod:`leadctl.views.timefmt`), so a time they cannot parse is
  still shown as received.
- :data:`Obj` and :data:`Objs`: a nested object, or an array of them; a value that is
  not an object (not an array) reads as absent, and non-objects in an array are left
  out, as the views did by hand.

Field names are snake_case and read the service's camelCase (``alias_generator``); a
snake_case key is accepted too (``populate_by_name``), for tests and callers that build
a model by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict
from pydantic.alias_generators import to_camel
from pydantic_core import CoreSchema, core_schema
from typing_extensions import Self


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return str(value)
    return None


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _integer(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if value == int(value) else None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _object(value: Any) -> Any:
    return value if isinstance(value, Mapping) else None


def _objects(value: Any) -> list[Any] | None:
    if not isinstance(value, list):
        return None
    return [item for item in value if isinstance(item, Mapping)]


def _texts(value: Any) -> list[str] | None:
    if not isinstance(value, list):
        return None
    return [text for text in map(_text, value) if text is not None]


class _Read:
    """A scalar field's whole validation: ``read`` already returns the field's type or
    None, so pydantic gets one prebuilt plain-function schema instead of generating a
    schema (and inspecting the validator's signature) for each of some 150 fields: it
    takes a third off building the models, paid by every view that draws them."""

    def __init__(self, read: Callable[[Any], Any]) -> None:
        self._schema = core_schema.no_info_plain_validator_function(read)

    def __get_pydantic_core_schema__(self, _source: Any, _handler: Any) -> CoreSchema:
        return self._schema


Text = Annotated[str | None, _Read(_text)]
String = Annotated[str | None, _Read(_string)]
Texts = Annotated[list[str] | None, _Read(_texts)]
Number = Annotated[float | None, _Read(_number)]
Integer = Annotated[int | None, _Read(_integer)]
Flag = Annotated[bool | None, _Read(_flag)]
Instant = Text

M = TypeVar("M", bound="Resource")
Obj = Annotated[M | None, BeforeValidator(_object)]
Objs = Annotated[list[M] | None, BeforeValidator(_objects)]


class Resource(BaseModel):
    """A resource as the service sent it: every field optional, unknown fields kept."""

    model_config = ConfigDict(
        extra="allow", populate_by_name=True, alias_generator=to_camel, frozen=True
    )

    @classmethod
    def read(cls, data: Any) -> Self:
        """The model of ``data`` for display; never fails: a value that is not an object
        reads as an empty resource (every field absent). Shape checks that must fail on
        a wrong answer are :mod:`leadctl.contract.shapes`' (exit 8), done before a view is drawn.
        """
        return cls.model_validate(dict(data) if isinstance(data, Mapping) else {})

    def sent(self, field: str) -> bool:
        """Whether the service sent ``field`` (by its Python name), even as null."""
        return field in self.model_fields_set


class IdNamePair(Resource):
    """``{id, name}``: how the reference points at another resource."""

    id: Text = None
    name: Text = None

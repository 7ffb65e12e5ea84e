"""The parts of a compiled index entry (``leadctl.contract.index``), decoded into typed,
frozen values once, where the index is read: everything after the decoder reads
attributes mypy checks, not string keys of JSON it cannot.

The on-disk index stays JSON (it is cached per service); these are its in-memory shape.
``leadctl.contract.operations.Operation`` is built from them. Named tuples, not
dataclasses: this module loads with every generated verb and its help, and generating a
frozen dataclass's methods costs about 0.6 ms a class where a named tuple costs 0.08.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

Scalar = str | int | float | bool


class Idempotency(NamedTuple):
    """Where an operation takes its idempotency key: a header or a top-level body field."""

    where: str  # "header" or "body"
    name: str


class Parameter(NamedTuple):
    """A path, query or header parameter, and how its argument or option looks."""

    name: str
    where: str  # path, query or header
    required: bool
    type: str = "string"  # string, integer, number, boolean or array
    description: str = ""
    items: str | None = None  # an array's item type
    enum: tuple[str, ...] = ()
    default: Scalar | None = None
    format: str | None = None  # date-time or date: takes the curated commands' time forms
    untyped: bool = False  # the contract gives no type: a value that reads as a time is one
    phone: bool = False  # normalised to E.164 with the profile's region
    metavar: str | None = None  # a path parameter's argument name
    flag: str | None = None  # a query or header parameter's option
    checked: bool = False  # its schema has constraints beyond type and enum (schemas.json)


class BodyField(NamedTuple):
    """A body field's summary for --help, examples and typing."""

    name: str
    type: str  # a JSON type, a string's format, or "array of TYPE"
    required: bool = False
    enum: tuple[Any, ...] = ()
    description: str | None = None
    phone: bool = False
    fields: tuple[BodyField, ...] = ()  # a required object's own fields


class Body(NamedTuple):
    """The request body an operation takes."""

    required: bool
    media: str
    json: bool
    paged: bool = False  # a RequestDataOptions page: leadctl's paging and query options
    collection_query: bool = False
    schema_ref: str | None = None
    description: str = ""
    fields: tuple[BodyField, ...] = ()
    phones: tuple[str, ...] = ()  # dot paths sent in E.164
    form: str | None = None  # "multipart" or "form" for a form body
    files: tuple[str, ...] = ()  # a multipart body's file parts
    empty_allowed: bool = False  # the contract says the form may be left out


class Response(NamedTuple):
    """What the success answer is, and the table columns it shows."""

    kind: str = "object"  # object, array, collection or empty
    # [path, kind] or [path, kind, "whole"] (never cut), most wanted first.
    columns: tuple[tuple[str, ...], ...] = ()
    paged: bool = False  # an object holding a page of a collection


class Pending(NamedTuple):
    """x-leadctl-pending: how to wait for an answer's outcome (see the compiler)."""

    field: str
    pending: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()
    poll: str | None = None  # the operationId of the GET that reads the resource again
    id_field: str = "id"
    reason_field: str | None = None
    # The operationId of the GET that downloads the resource once settled (--download).
    download: str | None = None


def idempotency_of(raw: Any) -> Idempotency | None:
    return Idempotency(str(raw["in"]), str(raw["name"])) if raw else None


def parameter_of(raw: Mapping[str, Any]) -> Parameter:
    return Parameter(
        name=str(raw["name"]),
        where=str(raw["in"]),
        required=bool(raw.get("required")),
        type=str(raw.get("type") or "string"),
        description=str(raw.get("description") or ""),
        items=text_or_none(raw.get("items")),
        enum=tuple(str(v) for v in raw.get("enum", ())),
        default=raw.get("default"),
        format=text_or_none(raw.get("format")),
        untyped=bool(raw.get("untyped")),
        phone=bool(raw.get("phone")),
        metavar=text_or_none(raw.get("metavar")),
        flag=text_or_none(raw.get("flag")),
        checked=bool(raw.get("checked")),
    )


def body_field_of(raw: Mapping[str, Any]) -> BodyField:
    return BodyField(
        name=str(raw["name"]),
        type=str(raw.get("type") or "any"),
        required=bool(raw.get("required")),
        enum=tuple(raw.get("enum", ())),
        description=text_or_none(raw.get("description")),
        phone=bool(raw.get("phone")),
        fields=_body_fields(raw.get("fields", ())),
    )


def _body_fields(raw: Iterable[Mapping[str, Any]]) -> tuple[BodyField, ...]:
    return tuple(body_field_of(f) for f in raw)


def body_of(raw: Any) -> Body | None:
    if not raw:
        return None
    return Body(
        required=bool(raw.get("required")),
        media=str(raw.get("media") or ""),
        json=bool(raw.get("json")),
        paged=bool(raw.get("paged")),
        collection_query=bool(raw.get("collectionQuery")),
        schema_ref=text_or_none(raw.get("schemaRef")),
        description=str(raw.get("description") or ""),
        fields=_body_fields(raw.get("fields", ())),
        phones=tuple(str(p) for p in raw.get("phones", ())),
        form=text_or_none(raw.get("form")),
        files=tuple(str(f) for f in raw.get("files", ())),
        empty_allowed=bool(raw.get("emptyAllowed")),
    )


def response_of(raw: Any) -> Response:
    if not raw:
        return Response()
    return Response(
        kind=str(raw.get("kind") or "object"),
        columns=tuple(map(tuple, raw.get("columns", ()))),
        paged=bool(raw.get("paged")),
    )


def pending_of(raw: Any) -> Pending | None:
    if not raw:
        return None
    return Pending(
        field=str(raw["field"]),
        pending=tuple(str(v) for v in raw.get("pending", ())),
        failed=tuple(str(v) for v in raw.get("failed", ())),
        poll=text_or_none(raw.get("poll")),
        id_field=str(raw.get("idField") or "id"),
        reason_field=text_or_none(raw.get("reasonField")),
        download=text_or_none(raw.get("download")),
    )


def text_or_none(value: Any) -> str | None:
    """A JSON string or null as ``str | None``."""
    return None if value is None else str(value)

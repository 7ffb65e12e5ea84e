"""Lead fields as dot paths into the active contract's intake schema (cli.md "Commands").

``leads create --field contact.phone.number=5125550123`` and a CSV column headed
``contact.phone.number`` both name a field of the POST /leads request schema, whatever shape
the service gives it: flat (the bundled contract) or nested (real services). Values typed on a
command line or in a CSV cell are typed from the schema (``720`` for an integer field is 720,
``yes``/``true`` for a boolean is true, ``a;b`` for an array of strings is two items);
phone-shaped fields are sent in E.164 (national numbers use the profile's region) wherever they
sit; required fields are checked before anything is sent. A path the schema does not have is
exit 2 naming the closest ones.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TextIO

from leadctl.contract.body_schema import admits_null, body_schema
from leadctl.contract.field_paths import FieldPaths
from leadctl.contract.phones import is_phone_value
from leadctl.errors import UsageError
from leadctl.inputs.datetimes import EXAMPLES, InvalidDateTime, looks_like_datetime, parse_instant
from leadctl.inputs.fields import (
    build_fields,
    load_data_option,
    merge_over,
    read_source,
    split_field,
)
from leadctl.inputs.phone import to_e164
from leadctl.util.jsonkind import json_kind
from leadctl.util.jsontext import loads_input

if TYPE_CHECKING:
    from datetime import datetime, tzinfo

    from leadctl.contract.document import Document
    from leadctl.contract.field_paths import FieldPaths
    from leadctl.contract.invocation import InputInvocation
    from leadctl.contract.operations import Operation

TRUE_WORDS = frozenset({"true", "yes", "y", "1", "on"})
FALSE_WORDS = frozenset({"false", "no", "n", "0", "off"})
ARRAY_SEPARATOR = ";"
MAX_DEPTH = 6
_FIELD_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\[\])?$")


@dataclass(frozen=True)
class Times:
    """How date-time fields are read (cli.md "Output rules"): a time without an offset is
    in ``zone`` (None: the system's), relative forms (-2h, today) count from ``now``."""

    zone: tzinfo | None
    now: datetime | None


# The schema of an array's items when it states none (one object: field types are kept by
# the identity of their schema).
ANY_ITEMS: dict[str, Any] = {}


@dataclass(frozen=True)
class FieldType:
    """What typing a field's text needs of its schema, read through its $refs once."""

    kind: str | None  # the JSON type, nullability aside; None: not one
    nullable: bool  # the text null is sent as null
    date_time: bool  # a string of format date-time
    items: Any  # an array's items schema (ANY_ITEMS when it states none)

    @classmethod
    def of(cls, doc: Document, schema: Any) -> FieldType:
        if schema is None:
            return cls(None, False, False, ANY_ITEMS)
        kind = doc.type_of(schema)
        return cls(
            kind,
            admits_null(doc, schema),
            kind == "string" and doc.keyword(schema, "format") == "date-time",
            (doc.keyword(schema, "items") or ANY_ITEMS) if kind == "array" else ANY_ITEMS,
        )


@dataclass
class LeadSchema:
    """The intake body's fields: dot path -> schema, leaves and objects apart."""

    doc: Document
    schema: Any
    leaves: dict[str, Any] = field(default_factory=dict)
    objects: dict[str, Any] = field(default_factory=dict)
    times: Times | None = None  # None: date-time text is sent as typed
    # Each field's type by the identity of its schema: decided once a run, not once a row
    # (an import of 10k rows walked each field's $refs again for every row).
    _types: dict[int, FieldType] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Document, schema: Any) -> LeadSchema:
        found = cls(doc, schema)
        found._walk(schema, "", 0)
        return found

    def _walk(self, schema: Any, prefix: str, depth: int) -> None:
        for name, sub in self.doc.properties(schema).items():
            path = f"{prefix}{name}"
            if depth < MAX_DEPTH and self.doc.properties(sub):
                self.objects[path] = sub
                self._walk(sub, f"{path}.", depth + 1)
            else:
                self.leaves[path] = sub

    def check_path(self, path: str, what: str) -> None:
        """Refuse a path the schema does not list where it takes no other fields (a typo
        would be dropped by the service), naming the closest ones."""
        self.paths.resolve(path, what=what)

    @cached_property
    def paths(self) -> FieldPaths:

        return FieldPaths(self.doc, self.schema, noun="the active contract's lead")

    @property
    def open(self) -> bool:
        """No properties listed: any field goes (then nothing is typed or refused)."""
        return not self.leaves and not self.objects

    # -- values ----------------------------------------------------------------------------

    def typed(self, path: str, text: str) -> Any:
        """``text`` (from a command line or CSV cell) as the value field ``path`` takes."""
        schema = self.leaves.get(path, self.objects.get(path))
        return typed_value(
            self.doc, schema, text, what=path, times=self.times, types=self.field_type
        )

    def field_type(self, schema: Any) -> FieldType:
        found = self._types.get(id(schema))
        if found is None:
            found = self._types[id(schema)] = FieldType.of(self.doc, schema)
        return found

    @cached_property
    def phone_paths(self) -> frozenset[str]:
        """The leaves whose values are phone numbers (decided once a run)."""
        return frozenset(
            path for path, schema in self.leaves.items() if is_phone_value(self.doc, path, schema)
        )

    def retyped(self, value: Any, prefix: str = "") -> Any:
        """A record whose leaves may be strings (CSV) with each string typed by its field;
        values that are not strings (NDJSON) are kept as they are."""
        if isinstance(value, dict):
            return {k: self.retyped(v, f"{prefix}{k}.") for k, v in value.items()}
        path = prefix[:-1]
        if isinstance(value, str) and path in self.leaves:
            return self.typed(path, value)
        if isinstance(value, list) and path in self.leaves:
            items = self.field_type(self.leaves[path]).items
            return [
                typed_value(self.doc, items, v, what=path, times=self.times, types=self.field_type)
                if isinstance(v, str)
                else v
                for v in value
            ]
        return value

    def with_phones(self, body: Any, region: object, prefix: str = "") -> Any:
        """``body`` with every phone-shaped string field in E.164."""
        if isinstance(body, dict):
            return {k: self.with_phones(v, region, f"{prefix}{k}.") for k, v in body.items()}
        path = prefix[:-1]
        if path in self.phone_paths:
            if isinstance(body, int) and not isinstance(body, bool):
                body = str(body)  # digits typed as a number are still the number
            if isinstance(body, str):
                return to_e164(body, region=region, what=path)
        return body

    def filled(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with ``{}`` for each required object left out whose own fields are all
        optional (an empty profile is still a profile)."""
        return _filled(self.doc, self.schema, body)

    def missing(self, body: Mapping[str, Any]) -> list[str]:
        """Required fields the body lacks, as dot paths (inside objects it has or needs)."""
        return _missing(self.doc, self.schema, body, "")


def _filled(doc: Document, schema: Any, value: dict[str, Any]) -> dict[str, Any]:
    out = dict(value)
    properties = doc.properties(schema)
    for name in doc.required(schema):
        sub = properties.get(name, {})
        if not doc.properties(sub):
            continue
        if name not in out and not doc.required(sub):
            out[name] = {}
        if isinstance(out.get(name), dict):
            out[name] = _filled(doc, sub, out[name])
    return out


def _missing(doc: Document, schema: Any, value: Any, prefix: str) -> list[str]:
    found: list[str] = []
    properties = doc.properties(schema)
    for name in doc.required(schema):
        sub = properties.get(name, {})
        if not isinstance(value, Mapping) or name not in value:
            inner = _missing(doc, sub, {}, f"{prefix}{name}.") if doc.properties(sub) else []
            found += inner or [f"{prefix}{name}"]
        elif isinstance(value[name], Mapping):
            found += _missing(doc, sub, value[name], f"{prefix}{name}.")
    return found


def typed_value(
    doc: Document,
    schema: Any,
    text: str,
    *,
    what: str,
    times: Times | None = None,
    types: Callable[[Any], FieldType] | None = None,
) -> Any:
    """``text`` as the value ``schema`` takes; ``types``: where field types are kept (a
    run's LeadSchema), else each is read from the schema."""
    rule = types(schema) if types is not None else FieldType.of(doc, schema)
    kind = rule.kind
    if text == "null" and rule.nullable:
        return None
    if kind == "integer":
        try:
            return int(text.strip())
        except ValueError:
            raise UsageError(f"{what}: {text!r} is not a whole number") from None
    if kind == "number":
        try:
            number = float(text.strip())
        except ValueError:
            raise UsageError(f"{what}: {text!r} is not a number") from None
        if not math.isfinite(number):  # nan and inf are not JSON
            raise UsageError(f"{what}: {text!r} is not a number")
        return number
    if kind == "boolean":
        word = text.strip().lower()
        if word in TRUE_WORDS or word in FALSE_WORDS:
            return word in TRUE_WORDS
        raise UsageError(f"{what}: {text!r} is not true/false (or yes/no)")
    if kind in ("array", "object") and text.lstrip()[:1] in ("[", "{"):
        try:
            return loads_input(text)
        except ValueError as error:
            raise UsageError(f"{what}: invalid JSON: {error}") from None
    if kind == "array":
        parts = [part.strip() for part in text.split(ARRAY_SEPARATOR) if part.strip()]
        return [
            typed_value(doc, rule.items, part, what=what, times=times, types=types)
            for part in parts
        ]
    if kind == "object":
        raise UsageError(f"{what} is an object: give its fields ({what}.NAME=VALUE) or JSON")
    if times is not None and rule.date_time:
        return _instant(text, what=what, times=times)
    if times is not None and kind is None and schema is not None and looks_like_datetime(text):
        # Nothing says the field is anything else: a time as people type it is a time.
        return _instant(text, what=what, times=times)
    return text


def _instant(text: str, *, what: str, times: Times) -> str:
    """A date-time field's text as UTC ISO 8601, read as the curated commands read times."""

    try:
        return parse_instant(text, zone=times.zone, now=times.now).isoformat()
    except InvalidDateTime as error:
        raise UsageError(
            f"{what}: {text!r} is not a date-time ({error})", hint=f"use ISO 8601, e.g. {EXAMPLES}"
        ) from None


# -- commands ------------------------------------------------------------------------------


def lead_schema(ctx: InputInvocation, op: Operation) -> LeadSchema | None:

    found = body_schema(ctx, op)
    if found is None:
        return None
    schema = LeadSchema.of(found.doc, found.schema)
    schema.times = Times(ctx.input_zone(), ctx.clock.now())
    return None if schema.open else schema


def lead_body(
    ctx: InputInvocation,
    op: Operation,
    *,
    typed_fields: Sequence[str],
    data: str | None,
    stdin: TextIO | None,
) -> dict[str, Any] | None:
    """``leads create``'s body built on the operation's schema; None when the contract lists
    no lead fields (the caller then builds it as before)."""

    if not typed_fields and data is None:
        return None  # nothing to send: the caller says so
    shape = lead_schema(ctx, op)
    if shape is None:
        return None
    base: Any = {}
    if data is not None:
        base = load_data_option(data, stdin=stdin)
        if not isinstance(base, dict):
            raise UsageError(f"--data must be a JSON object, not {json_kind(base)}")
    given: dict[str, Any] = {}
    extras: list[str] = []
    for raw in typed_fields:
        key, text = split_field(raw, flag="--field")
        append = key.endswith("[]")
        path = key[:-2] if append else key
        if path not in shape.leaves and path not in shape.objects:
            shape.check_path(key, "--field")
            extras.append(raw)  # a field the schema allows without listing it
            continue
        if text.startswith("@"):
            text = read_source(text[1:], what=f"field {key!r}", stdin=stdin).rstrip("\n")
        if append:
            items = shape.doc.keyword(shape.leaves.get(path, {}), "items") or {}
            _append(given, path, typed_value(shape.doc, items, text, what=path, times=shape.times))
        else:
            _set(given, path, shape.typed(path, text))
    if extras:
        # Typed like `api -F`, with its key syntax (a.b, a[b], a[]).
        given = merge_over(
            build_fields(typed_fields=extras, stdin=stdin, typed_flag="--field"), given
        )
    body = shape.filled(merge_over(base, given))
    missing = shape.missing(body)
    if missing:
        raise UsageError(
            f"the lead lacks required fields: {', '.join(missing)}",
            hint="give them with --field PATH=VALUE (dot paths) or in --data",
        )
    return dict(shape.with_phones(body, ctx.settings.get("region")))


def lead_preparer(
    ctx: InputInvocation,
    op: Operation,
    *,
    header: bytes | None,
    renames: Mapping[str, str] | None = None,
) -> Callable[[dict[str, Any]], dict[str, Any]] | None:
    """The row preparer of ``leads import`` on the operation's schema: each row typed, its
    phones in E.164, its required fields checked (a failure makes that row invalid). A CSV
    column that names no field is exit 2 here, before any row is read. None when the
    contract lists no lead fields."""
    shape = lead_schema(ctx, op)
    if shape is None:
        return None
    list_columns: list[str] = []
    required = set(shape.missing(shape.filled({})))
    if header is not None:
        import csv

        try:
            names = next(csv.reader([header.decode("utf-8", "replace")]), [])
        except csv.Error:
            names = []  # not a header leadctl can read: the row reader says why
        columns = [(renames or {}).get(n.strip(), n.strip()) for n in names]
        for name in columns if _plain_header(columns) else ():
            path = name[:-2] if name.endswith("[]") else name
            known = path in shape.leaves or path in shape.objects
            if not known:
                shape.check_path(name, "column")
            leaf = shape.leaves.get(path)
            if path in required and leaf is not None and shape.doc.type_of(leaf) == "array":
                list_columns.append(path)
    region = ctx.settings.get("region")

    def prepare(record: dict[str, Any]) -> dict[str, Any]:
        typo = shape.paths.unknown_in(record)  # an NDJSON row's keys, nested ones too
        if typo is not None:
            raise UsageError(f"{typo.message} ({typo.hint})")
        body = shape.filled(shape.retyped(record))
        for path in list_columns:
            # The row reader leaves an empty cell out; a required list is then empty.
            _set_default(body, path, [])
        missing = shape.missing(body)
        if missing:
            raise UsageError(f"missing {', '.join(missing)}")
        return dict(shape.with_phones(body, region))

    return prepare


def _plain_header(columns: Sequence[str]) -> bool:
    """Field names, none twice and none inside another: what the columns mean can be
    checked. Anything else the row reader refuses with its own reason (no header, a
    column repeated, ``address`` beside ``address.city``)."""
    if not all(_FIELD_NAME.match(name) for name in columns):
        return False
    singles = [name for name in columns if not name.endswith("[]")]
    if len(set(singles)) != len(singles):
        return False
    # Linear in the header's length (a CSV may have tens of thousands of columns): each
    # path's parents are looked up, not compared with every other column.
    paths = {name.removesuffix("[]") for name in columns}
    return not any(
        ".".join(parts[:end]) in paths
        for parts in (path.split(".") for path in paths)
        for end in range(1, len(parts))
    )


def _set(body: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    target = body
    for part in parents:
        target = target.setdefault(part, {})
    target[leaf] = value


def _append(body: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    target = body
    for part in parents:
        target = target.setdefault(part, {})
    target.setdefault(leaf, []).append(value)


def _set_default(body: dict[str, Any], path: str, value: Any) -> None:
    *parents, leaf = path.split(".")
    target = body
    for part in parents:
        target = target.setdefault(part, {})
        if not isinstance(target, dict):
            return  # the row has something else there: it stays as the row has it
    target.setdefault(leaf, value)


# -- leads import --map and --field --------------------------------------------------------


def column_renames(maps: Sequence[str]) -> dict[str, str]:
    """``--map COLUMN=PATH`` as column -> dot path; a malformed or repeated one is exit 2."""
    renames: dict[str, str] = {}
    for raw in maps:
        column, sep, path = raw.rpartition("=")
        column, path = column.strip(), path.strip()
        if not sep or not column or not _FIELD_NAME.match(path):
            raise UsageError(
                f"--map {raw!r}: expected COLUMN=PATH, PATH a dot path such as contact.firstName"
            )
        if column in renames:
            raise UsageError(f"--map {raw!r}: column {column!r} is mapped twice")
        renames[column] = path
    return renames


def with_mapping(
    ctx: InputInvocation,
    op: Operation,
    prepare: Callable[[dict[str, Any]], dict[str, Any]],
    *,
    maps: Sequence[str],
    fields: Sequence[str],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``prepare`` behind ``leads import``'s --map (an NDJSON key renamed; CSV columns are
    renamed with the header) and --field (a value for every row that has none there).

    A --field path the schema closes out, or a value it cannot type, is exit 2 before
    anything is read; the text is then typed with each row, like a cell.
    """

    renames = column_renames(maps)
    shape = lead_schema(ctx, op) if fields else None
    shared: list[tuple[str, str]] = []
    for raw in fields:
        path, text = split_field(raw, flag="--field")
        if shape is not None:
            if path in shape.leaves or path in shape.objects:
                try:
                    shape.typed(path, text)
                except UsageError as error:
                    raise UsageError(f"--field {raw!r}: {error.message}") from None
            else:
                shape.check_path(path, "--field")
        shared.append((path, text))
    if not renames and not shared:
        return prepare

    def mapped(record: dict[str, Any]) -> dict[str, Any]:
        for column, path in renames.items():
            if column in record and column != path:
                _set_default(record, path, record.pop(column))
        for path, text in shared:
            _set_default(record, path, text)
        return prepare(record)

    return mapped

"""Lead fields as dot paths into the active contract's intake schema (POST /leads).

``leads create --field contact.phone.number=...`` and the CSV columns of ``leads import``
name fields by dot path; the path is checked against the request schema (a wrong one is a
usage error naming the closest real ones), the text is typed from the schema (``720`` for
an integer, ``yes`` for a boolean, ``a;b`` for a list of strings, a date-time without an
offset in the profile's timezone), and every phone-shaped string, wherever it sits, is
sent in E.164. Required fields are checked before anything is sent; a required list
nobody gave goes out empty and a required object whose fields are all optional as ``{}``.

When the active contract has no JSON body schema for POST /leads, fields pass as typed by
``api -F`` (``leadctl.fields``) and only a top-level ``phone`` is normalised: the old flat
behaviour.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError

if TYPE_CHECKING:
    from datetime import datetime, tzinfo
    from typing import TextIO

    from leadctl.context import Context
    from leadctl.contract.index import Document

INTAKE = ("POST", "/leads")
# Deep enough for any real intake body; a $ref cycle stops here.
_MAX_DEPTH = 8
_SHOWN_PATHS = 3
_TRUE = frozenset({"true", "yes", "y", "1", "on"})
_FALSE = frozenset({"false", "no", "n", "0", "off"})
_INTEGER = re.compile(r"^[+-]?[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
_E164_TEXT = re.compile(r"\bE\.?\s?164\b", re.IGNORECASE)
_PHONE_FORMATS = frozenset({"phone", "tel", "e164", "e.164", "phone-number", "phonenumber"})
_PHONE_NAME = re.compile(r"phone|mobile|^cell|msisdn|^tel$", re.IGNORECASE)
# A phone object's own number: `contact.phone.number`.
_PHONE_PART = frozenset({"number", "value", "e164"})
_NOT_A_NUMBER_NAME = re.compile(r"(type|kind|status|consent|verified|ext|extension)$", re.I)
_PATH_PART = re.compile(r"^[^.\[\]\s]+$")
_HEADER_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*(?:\[\])?$")
# Enough to recognise the first line of a CSV file in an error message.
_SHOWN_HEADER = 60
_PHONES_REMEMBERED = 4096
# The schema of a value the contract says nothing about (one object, so memoised lookups
# on it never meet a recycled id).
_ANY: dict[str, Any] = {}


# -- the schema of an operation's body ------------------------------------------------------


@dataclass(frozen=True)
class BodySchema:
    doc: Document
    schema: Any
    where: str  # "POST /leads", for messages


def request_schema(ctx: Context, method: str, path: str) -> BodySchema | None:
    """The JSON request body schema of METHOD + path template in the contract the curated
    command's operation comes from (the active one; the bundled one when the active
    contract lacks the operation). None when it takes no JSON body."""
    from leadctl.contract.index import Document
    from leadctl.operations import curated, template_key

    operation = curated(ctx, method, path)
    document = _contract_document(ctx, bundled=operation.bundled)
    if document is None:
        return None
    doc = Document(document)
    wanted = template_key(method, path)
    try:
        for template, item in (document.get("paths") or {}).items():
            if template_key(method, str(template)) != wanted:
                continue
            spec = doc.resolve(item).get(method.lower())
            body = doc.resolve(spec.get("requestBody")) if isinstance(spec, Mapping) else None
            schema = _json_schema(body.get("content") if isinstance(body, Mapping) else None)
            if schema is None:
                return None
            doc.resolve(schema)
            return BodySchema(doc, schema, f"{method.upper()} {path}")
    except (KeyError, IndexError, TypeError, ValueError):
        return None  # an unresolvable $ref: the service checks the body then
    return None


def _contract_document(ctx: Context, *, bundled: bool) -> Mapping[str, Any] | None:
    """A contract as a 3.1 document (stored as JSON or YAML, OpenAPI 3.0 to 3.2)."""
    from leadctl.contract.formats import parse_document, to_31
    from leadctl.contract.store import bundled_index
    from leadctl.operations import active_index_of

    active = bundled_index() if bundled else active_index_of(ctx)
    try:
        raw = active.contract_path.read_bytes()
        return to_31(parse_document(raw, what=str(active.contract_path)))
    except (OSError, UsageError):
        return None


def _json_schema(content: Any) -> Any:
    if not isinstance(content, Mapping):
        return None
    media = [m for m in content if m.split(";")[0].strip().lower() == "application/json"]
    media += [m for m in content if m not in media and m.lower().endswith("json")]
    for name in media:
        entry = content[name]
        if isinstance(entry, Mapping) and "schema" in entry:
            return entry["schema"]
    return None


# -- one field ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    path: tuple[str, ...]
    schema: Any  # None: nothing known, the value passes as given
    phone: bool
    collect: bool = False  # `tags[]`: each value is one item of the list

    @property
    def name(self) -> str:
        return ".".join(self.path) + ("[]" if self.collect else "")


class TypingError(ValueError):
    """A value that cannot have its field's type; the message is the reason."""


class LeadShape:
    """The intake schema of the active contract, for dot paths and typed values."""

    def __init__(
        self,
        body: BodySchema | None,
        *,
        region: object,
        zone: tzinfo | None = None,
        now: datetime | None = None,
    ) -> None:
        self.body = body
        self.region = region
        # For date-time fields: a time without an offset is in ``zone`` (None: the
        # system's), relative forms (-2h, today) count from ``now``.
        self.zone = zone
        self.now = now
        # Per schema node (by identity: the nodes live as long as the document): the
        # walk repeats for every row of an import, and resolving allOf/$ref chains each
        # time would cost more than the request.
        self._memo: dict[tuple[str, int], Any] = {}
        self._phones: dict[str, str] = {}

    def _cached(self, what: str, schema: Any, compute: Callable[[], Any]) -> Any:
        key = (what, id(schema))
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # -- walking the schema

    @property
    def known(self) -> bool:
        return self.body is not None

    def _doc(self) -> Document:
        assert self.body is not None
        return self.body.doc

    def _type(self, schema: Any) -> str | None:
        def compute() -> str | None:
            found = self._doc().type_of(schema)
            return "object" if found is None and self._children(schema) else found

        kind: str | None = self._cached("type", schema, compute)
        return kind

    def _children(self, schema: Any) -> dict[str, Any]:
        found: dict[str, Any] = self._cached(
            "children", schema, lambda: self._doc().properties(schema)
        )
        return found

    def _required(self, schema: Any) -> list[str]:
        found: list[str] = self._cached("required", schema, lambda: self._doc().required(schema))
        return found

    def _keyword(self, schema: Any, name: str) -> Any:
        return self._cached(f"keyword {name}", schema, lambda: self._doc().keyword(schema, name))

    def _open(self, schema: Any) -> Any:
        """The schema of an object's undeclared members, or None when it takes none.

        An object that declares no properties at all is free-form (a map of custom
        fields); one that declares some takes only those, whatever JSON Schema's default:
        a misspelt field is far likelier than a field the contract forgot.
        """
        extra = self._keyword(schema, "additionalProperties")
        if isinstance(extra, Mapping):
            return extra
        if extra is True or (extra is None and not self._children(schema)):
            return _ANY
        return None

    def _items(self, schema: Any) -> Any:
        items = self._keyword(schema, "items")
        return items if items is not None else _ANY

    def _nullable(self, schema: Any) -> bool:
        for branch in self._doc().branches(schema):
            wanted = branch.get("type")
            if wanted == "null" or (isinstance(wanted, list) and "null" in wanted):
                return True
            if branch.get("nullable") is True:
                return True
            for key in ("anyOf", "oneOf"):
                for option in branch.get(key, ()):
                    if self._doc().resolve(option) == {"type": "null"}:
                        return True
        return False

    def _is_phone(self, name: str, schema: Any, parent: str | None) -> bool:
        if self._type(schema) not in (None, "string") or self._keyword(schema, "enum"):
            return False
        fmt = self._keyword(schema, "format")
        if isinstance(fmt, str):
            # uri, email, date-time...: not a phone whatever its name.
            return fmt.lower() in _PHONE_FORMATS
        for key in ("description", "title"):
            text = self._keyword(schema, key)
            if isinstance(text, str) and _E164_TEXT.search(text):
                return True
        if _PHONE_NAME.search(name) and not _NOT_A_NUMBER_NAME.search(name):
            return True
        return (
            name.lower() in _PHONE_PART and parent is not None and bool(_PHONE_NAME.search(parent))
        )

    def paths(self) -> list[str]:
        """Every leaf field as a dot path, in schema order (nested objects opened)."""
        if self.body is None:
            return []
        found: list[str] = []

        def walk(schema: Any, prefix: str, depth: int) -> None:
            for name, sub in self._children(schema).items():
                path = f"{prefix}{name}"
                if self._type(sub) == "object" and self._children(sub) and depth < _MAX_DEPTH:
                    walk(sub, path + ".", depth + 1)
                else:
                    found.append(path)

        walk(self.body.schema, "", 0)
        return found

    def required_paths(self) -> list[str]:
        """The leaf fields every lead must have: required all the way down. Lists and
        objects with nothing required are left out (they are filled in empty)."""
        if self.body is None:
            return []
        found: list[str] = []

        def walk(schema: Any, prefix: str, depth: int) -> None:
            children = self._children(schema)
            for name in self._required(schema):
                sub = children.get(name, _ANY)
                kind = self._type(sub)
                if kind == "array":
                    continue
                if kind == "object" and depth < _MAX_DEPTH:
                    walk(sub, f"{prefix}{name}.", depth + 1)
                else:
                    found.append(f"{prefix}{name}")

        walk(self.body.schema, "", 0)
        return found

    def field(self, text: str, *, what: str) -> Field:
        """The field a dot path names (``contact.phone.number``, ``tags[]``), or a
        UsageError that names the closest real ones."""
        name = text.strip()
        collect = name.endswith("[]")
        bare = name[:-2] if collect else name
        parts = tuple(bare.split("."))
        if not bare or not all(_PATH_PART.match(part) for part in parts):
            raise UsageError(f"{what}: {text!r} is not a dot path such as contact.firstName")
        if self.body is None:
            phone = parts == ("phone",)
            return Field(parts, None, phone=phone, collect=collect)
        schema = self.body.schema
        parent: str | None = None
        for index, part in enumerate(parts):
            children = self._children(schema)
            if part in children:
                sub = children[part]
            else:
                extra = self._open(schema) if self._type(schema) in ("object", None) else None
                if extra is None:
                    raise self._unknown(bare, what)
                sub = extra
            if index < len(parts) - 1 and self._type(sub) not in ("object", None):
                raise UsageError(
                    f"{what}: {'.'.join(parts[: index + 1])} is {self._kind(sub)}, "
                    "it has no fields of its own"
                )
            parent, schema = (parts[index - 1] if index else None), sub
        if collect:
            if self._type(schema) != "array":
                raise UsageError(
                    f"{what}: {bare} is {self._kind(schema)}, not a list: [] adds to a list"
                )
            items = self._items(schema)
            return Field(parts, items, phone=self._is_phone(parts[-1], items, parent), collect=True)
        return Field(parts, schema, phone=self._is_phone(parts[-1], schema, parent))

    def _unknown(self, path: str, what: str) -> UsageError:
        shown = closest(path, self.paths())
        where = self.body.where if self.body else "the lead"
        message = f"{what}: the lead schema ({where}) has no field {path!r}"
        if shown:
            return UsageError(message, hint=f"did you mean {', '.join(shown)}?")
        return UsageError(message, hint=f"its fields: {', '.join(self.paths()[:12])}")

    def _kind(self, schema: Any) -> str:
        kind = self._type(schema)
        articles = {"array": "a list", "object": "an object", "integer": "an integer"}
        return articles.get(str(kind), f"a {kind}" if kind else "a value")

    # -- typing text

    def typed(self, spec: Field, text: str) -> Any:
        """``text`` as the value ``spec`` takes; TypingError says why it cannot be."""
        if spec.schema is None:
            return text
        value = self._typed(spec.schema, text, spec.name)
        if spec.phone and isinstance(value, str):
            value = self._e164(value, spec.name)
        return value

    def _typed(self, schema: Any, text: str, name: str) -> Any:
        kind = self._type(schema)
        stripped = text.strip()
        if stripped == "null" and self._nullable(schema):
            return None
        if kind == "integer":
            if _INTEGER.match(stripped):
                return int(stripped)
            if _NUMBER.match(stripped) and float(stripped).is_integer():
                return int(float(stripped))
            raise TypingError(f"{text!r} is not an integer")
        if kind == "number":
            if _INTEGER.match(stripped):
                return int(stripped)
            if _NUMBER.match(stripped):
                return float(stripped)
            raise TypingError(f"{text!r} is not a number")
        if kind == "boolean":
            lowered = stripped.lower()
            if lowered in _TRUE:
                return True
            if lowered in _FALSE:
                return False
            raise TypingError(f"{text!r} is not a boolean (true/false, yes/no, 1/0)")
        if kind == "array":
            if stripped.startswith("["):
                return _json(stripped, list)
            items = self._items(schema)
            return [
                self._typed(items, part.strip(), name) for part in text.split(";") if part.strip()
            ]
        if kind == "object":
            if stripped.startswith("{"):
                return _json(stripped, dict)
            inner = [p for p in self.paths() if p.startswith(name + ".")][:_SHOWN_PATHS]
            shown = ", ".join(inner) if inner else f"{name}.FIELD"
            raise TypingError(f"{name} is an object: give its fields ({shown}), or JSON")
        if kind == "string" and self._keyword(schema, "format") == "date-time":
            return self._instant(text)
        if kind == "string" or kind is None:
            return self._enum_value(schema, text)
        return text

    def _instant(self, text: str) -> str:
        from leadctl.datetimes import InvalidDateTime, parse_instant

        try:
            return parse_instant(text, zone=self.zone, now=self.now).isoformat()
        except InvalidDateTime as error:
            raise TypingError(f"{text!r} is not a date-time ({error})") from None

    def _enum_value(self, schema: Any, text: str) -> Any:
        choices = self._keyword(schema, "enum")
        if not isinstance(choices, list) or not choices or text in choices:
            return text
        for choice in choices:
            if isinstance(choice, str) and choice.lower() == text.strip().lower():
                return choice
        shown = ", ".join(str(c) for c in choices if c is not None)
        raise TypingError(f"{text!r} is not one of {shown}")

    def _e164(self, value: str, name: str) -> str:
        try:
            return self._to_e164(value, name)
        except UsageError as error:
            raise TypingError(error.message) from None

    def _to_e164(self, value: str, what: str) -> str:
        """``leadctl.phone.to_e164``, remembered: a number typed from a CSV cell is
        checked again with the whole lead, and phonenumbers is the costly part."""
        found = self._phones.get(value)
        if found is None:
            from leadctl.phone import to_e164

            found = to_e164(value, region=self.region, what=what)
            if len(self._phones) > _PHONES_REMEMBERED:
                self._phones.clear()
            self._phones[value] = self._phones[found] = found
        return found

    # -- whole bodies

    def normalised(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with every phone-shaped string in E.164 (a number typed as digits too);
        a UsageError names the field whose number is not one."""
        if self.body is None:
            phone = body.get("phone")
            if isinstance(phone, int) and not isinstance(phone, bool):
                phone = str(phone)
            if isinstance(phone, str):
                from leadctl.phone import to_e164

                body["phone"] = to_e164(phone, region=self.region, what="phone")
            return body
        return dict(self._normalise(body, self.body.schema, "", None, 0))

    def _normalise(self, value: Any, schema: Any, path: str, parent: str | None, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            return value
        if isinstance(value, dict):
            children = self._children(schema)
            own = path.rsplit(".", 1)[-1] if path else None
            out = {}
            for name, item in value.items():
                sub = children.get(name)
                if sub is None:
                    out[name] = item
                    continue
                where = f"{path}.{name}" if path else name
                out[name] = self._normalise(item, sub, where, own, depth + 1)
            return out
        name = path.rsplit(".", 1)[-1]
        if isinstance(value, list):
            items = self._items(schema)
            return [self._normalise(item, items, path, parent, depth + 1) for item in value]
        if isinstance(value, int) and not isinstance(value, bool) and path:
            # `phone: 5125550143` in NDJSON: its digits are still the number.
            value = str(value) if self._is_phone(name, schema, parent) else value
        if isinstance(value, str) and path and self._is_phone(name, schema, parent):
            return self._to_e164(value, path)
        return value

    def completed(self, body: dict[str, Any]) -> dict[str, Any]:
        """``body`` with empty required lists and all-optional objects filled in; a
        UsageError lists the required fields still missing."""
        if self.body is None:
            return body
        missing: list[str] = []
        self._complete(body, self.body.schema, "", missing, 0)
        if missing:
            order = {path: n for n, path in enumerate(self.paths())}
            missing.sort(key=lambda path: order.get(path, len(order)))
            raise UsageError(
                f"missing required field{'s' if len(missing) > 1 else ''}: " + ", ".join(missing)
            )
        return body

    def _complete(
        self, body: dict[str, Any], schema: Any, prefix: str, missing: list[str], depth: int
    ) -> None:
        if depth > _MAX_DEPTH:
            return
        children = self._children(schema)
        for name in self._required(schema):
            if name in body:
                continue
            sub = children.get(name, _ANY)
            kind = self._type(sub)
            if kind == "array":
                body[name] = []
            elif kind == "object":
                body[name] = {}
            else:
                missing.append(prefix + name)
        for name, value in body.items():
            sub = children.get(name)
            if isinstance(value, dict) and sub is not None and self._type(sub) == "object":
                self._complete(value, sub, f"{prefix}{name}.", missing, depth + 1)


def _json(text: str, kind: type) -> Any:
    try:
        value = json.loads(text)
    except ValueError as error:
        raise TypingError(f"invalid JSON: {error}") from None
    if not isinstance(value, kind):
        raise TypingError(f"{text!r} is not a JSON {'array' if kind is list else 'object'}")
    return value


def closest(path: str, paths: Sequence[str]) -> list[str]:
    """The real paths closest to a mistyped one: the same field under another parent
    (``firstName`` -> ``contact.firstName``) first, then near spellings."""
    import difflib

    wanted = path.lower()
    last = wanted.rsplit(".", 1)[-1]
    lowered = {p: p.lower() for p in paths}
    same = [p for p, low in lowered.items() if low == wanted]
    ends = [p for p, low in lowered.items() if low.endswith("." + wanted)]
    inside = [p for p, low in lowered.items() if last in low.split(".")[:-1]]
    leaf = {p: low.rsplit(".", 1)[-1] for p, low in lowered.items()}
    near_leaf = difflib.get_close_matches(
        last, list(dict.fromkeys(leaf.values())), n=3, cutoff=0.75
    )
    by_leaf = [p for p in paths if leaf[p] in near_leaf]
    near = difflib.get_close_matches(path, list(paths), n=3, cutoff=0.6)
    return list(dict.fromkeys([*same, *ends, *inside, *by_leaf, *near]))[:_SHOWN_PATHS]


# -- assigning fields -------------------------------------------------------------------------


def assign(target: dict[str, Any], spec: Field, value: Any, *, fill: bool = False) -> None:
    """Put ``value`` at ``spec``'s path; ``fill`` keeps a value already there."""
    *parents, leaf = spec.path
    node = target
    for part in parents:
        child = node.get(part)
        if not isinstance(child, dict):
            if fill and part in node:
                return
            child = node[part] = {}
        node = child
    if spec.collect:
        items = node.get(leaf)
        if not isinstance(items, list):
            if fill and leaf in node:
                return
            items = node[leaf] = []
        items.extend(value if isinstance(value, list) else [value])
        return
    if fill and leaf in node:
        return
    node[leaf] = value


def split_assignment(raw: str, *, flag: str, reverse: bool = False) -> tuple[str, str]:
    key, sep, value = raw.rpartition("=") if reverse else raw.partition("=")
    if not sep or not key.strip():
        shape = "COLUMN=dot.path" if reverse else "PATH=VALUE"
        raise UsageError(f"{flag} {raw!r}: expected {shape}")
    return key.strip(), value


def _field_value(
    shape: LeadShape, raw: str, *, flag: str, stdin: TextIO | None
) -> tuple[Field, Any]:
    from leadctl.fields import read_source

    key, text = split_assignment(raw, flag=flag)
    spec = shape.field(key, what=f"{flag} {raw!r}")
    if text.startswith("@"):
        text = read_source(text[1:], what=f"{flag} {key}", stdin=stdin).rstrip("\n")
    try:
        return spec, shape.typed(spec, text)
    except TypingError as error:
        raise UsageError(f"{flag} {raw!r}: {error}") from None


# -- leads create -----------------------------------------------------------------------------


def intake_shape(ctx: Context) -> LeadShape:
    from leadctl.datetimes import input_zone

    return LeadShape(
        request_schema(ctx, *INTAKE),
        region=ctx.settings.get("region"),
        zone=input_zone(ctx.settings.get("timezone"), ctx.env),
        now=ctx.clock.now(),
    )


def create_body(
    shape: LeadShape, *, typed_fields: Sequence[str], data: str | None, stdin: TextIO | None
) -> dict[str, Any]:
    """The lead `leads create` sends: --data, then each --field over it; typed, phones in
    E.164, required fields there."""
    from leadctl.fields import build_fields, json_kind, load_data_option, merge_over

    if not typed_fields and data is None:
        raise UsageError(
            "nothing to send: give --field PATH=VALUE or --data JSON",
            hint="for example: leadctl leads create --field phone=+15125550143 --field state=TX",
        )
    base: Any = {}
    if data is not None:
        base = load_data_option(data, stdin=stdin)
        if not isinstance(base, dict):
            raise UsageError(f"--data must be a JSON object, not {json_kind(base)}")
    if not shape.known:
        fields = build_fields(typed_fields=typed_fields, stdin=stdin, typed_flag="--field")
        return shape.normalised(merge_over(base, fields))
    body: dict[str, Any] = {}
    for raw in typed_fields:
        spec, value = _field_value(shape, raw, flag="--field", stdin=stdin)
        assign(body, spec, value)
    merged = merge_over(base, body)
    try:
        return shape.completed(shape.normalised(merged))
    except UsageError as error:
        if error.message.startswith("missing required"):
            raise UsageError(
                f"the lead lacks {error.message[len('missing ') :]}",
                hint="give them with --field PATH=VALUE or in --data",
            ) from None
        raise


# -- leads import -----------------------------------------------------------------------------


CellsToRecord = Callable[[list[str]], dict[str, Any]]


@dataclass(frozen=True)
class _Column:
    name: str  # as the header has it
    spec: Field


class ImportShape:
    """How the rows of `leads import` become leads: --map renames columns (or NDJSON
    keys), --field gives every row a value it lacks."""

    def __init__(
        self,
        shape: LeadShape,
        *,
        maps: Iterable[str] = (),
        fields: Iterable[str] = (),
        stdin: TextIO | None = None,
    ) -> None:
        self.shape = shape
        self.renames: dict[str, Field] = {}
        for raw in maps:
            column, target = split_assignment(raw, flag="--map", reverse=True)
            if column in self.renames:
                raise UsageError(f"--map {raw!r}: column {column!r} is mapped twice")
            self.renames[column] = shape.field(target, what=f"--map {raw!r}")
        self.shared = [_field_value(shape, raw, flag="--field", stdin=stdin) for raw in fields]

    def csv_plan(self, header: list[str], source: str) -> CellsToRecord:
        """The header checked at once (a column that names no field, and a required
        field no column or --field gives, are usage errors); then each record's cells
        typed into a lead, a cell that cannot be typed making its row invalid."""
        names = [name.strip() for name in header]
        if not any(names):
            raise UsageError(f"{source}: the header row is empty", hint=_HEADER_HINT)
        unmapped = sorted(set(self.renames) - set(names))
        if unmapped:
            raise UsageError(
                f"--map names column {unmapped[0]!r}, which {source} does not have",
                hint=f"its columns: {', '.join(names)}",
            )
        _check_header(names, header, {k: v.name for k, v in self.renames.items()}, source)
        columns = [self._column(name, source) for name in names]
        self._check_required(columns, source)

        def record(cells: list[str]) -> dict[str, Any]:
            lead: dict[str, Any] = {}
            problems = []
            for column, cell in zip(columns, cells, strict=True):
                if cell == "":
                    continue
                try:
                    assign(lead, column.spec, self.shape.typed(column.spec, cell))
                except TypingError as error:
                    problems.append(f"column {column.name!r}: {error}")
            if problems:
                raise UsageError("; ".join(problems))
            return lead

        return record

    def _column(self, name: str, source: str) -> _Column:
        if name in self.renames:
            return _Column(name, self.renames[name])
        try:
            return _Column(name, self.shape.field(name, what=f"{source}: column {name!r}"))
        except UsageError as error:
            if not name:
                raise UsageError(f"{source}: the header has an empty column name") from None
            mapping = f"map it with --map '{name}=PATH'"
            raise UsageError(
                f"{source}: column {name!r} maps to no lead field",
                hint=f"{error.hint} (or {mapping})" if error.hint else mapping,
            ) from None

    def _check_required(self, columns: list[_Column], source: str) -> None:
        given = {c.spec.path for c in columns} | {spec.path for spec, _ in self.shared}
        missing = [
            path
            for path in self.shape.required_paths()
            if not any(tuple(path.split("."))[: len(g)] == g for g in given)
        ]
        if missing:
            raise UsageError(
                f"{source}: no column gives the required field"
                f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}",
                hint="add the columns, --map a column to them, or give one value for every "
                "row with --field PATH=VALUE",
            )

    def prepare(self, lead: dict[str, Any]) -> dict[str, Any]:
        """A row's lead as sent: renamed NDJSON keys, shared --field values where the row
        has none, phones in E.164, required fields checked (UsageError: row invalid)."""
        for key, spec in self.renames.items():
            if key in lead and (key,) != spec.path:
                value = lead.pop(key)
                assign(lead, Field(spec.path, spec.schema, spec.phone), value)
        for spec, value in self.shared:
            assign(lead, spec, _copy(value), fill=True)
        return self.shape.completed(self.shape.normalised(lead))


_HEADER_HINT = (
    "the first row names the fields as dot paths, e.g. contact.firstName,contact.phone.number"
)


def _copy(value: Any) -> Any:
    return json.loads(json.dumps(value)) if isinstance(value, (dict, list)) else value


def _check_header(
    names: list[str], header: list[str], renames: Mapping[str, str], source: str
) -> None:
    """The first row names fields, each once (``tags[]`` may repeat), never a field and
    its parent; checked before the schema is asked, so the message says what is wrong."""
    shown = ",".join(header)
    if len(shown) > _SHOWN_HEADER:
        shown = shown[:_SHOWN_HEADER] + "…"
    for name in names:
        if name not in renames and not _HEADER_NAME.match(name):
            raise UsageError(
                f"{source}: the first row is not a header of field names ({name!r} in {shown!r})",
                hint=_HEADER_HINT,
            )
    targets = [renames.get(name, name) for name in names]
    plain = [target for target in targets if not target.endswith("[]")]
    twice = sorted({target for target in plain if plain.count(target) > 1})
    if twice:
        raise UsageError(f"{source}: the header names {', '.join(twice)} twice", hint=_HEADER_HINT)
    by_path = {
        tuple(target.removesuffix("[]").split(".")): name
        for name, target in zip(names, targets, strict=True)
    }
    for path, name in by_path.items():
        for end in range(1, len(path)):
            parent = by_path.get(path[:end])
            if parent is not None:
                raise UsageError(f"{source}: the header has both {parent!r} and {name!r}")
    collected = {t.removesuffix("[]") for t in targets if t.endswith("[]")}
    both = sorted(collected & set(plain))
    if both:
        raise UsageError(f"{source}: the header has both {both[0]!r} and {both[0] + '[]'!r}")

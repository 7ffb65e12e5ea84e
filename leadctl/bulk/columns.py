"""Which lead field each column of a CSV import names, decided before the first row is read.

Columns are dot paths into the active contract's create schema (``contact.firstName``). A
file that ``leads list -o csv`` wrote names the list's fields instead (``firstName``,
``phone``, ``tags[].name``, ``id``, ``currentLeadStatus.name``), and imports back as it is:

- a column the create has under the same leaf name, exactly once, is read as that field
  (``firstName`` as ``contact.firstName``; ``phone`` as ``contact.phone.number`` where the
  create's phone is an object with a number);
- the names of a list of objects are read as the create's list of those names, and their
  ids as its list of ids (``tags[].name`` as ``tagNames``, or as ``tags`` where the create
  takes tag names there; ``tags[].id`` as ``tagIds``); an object's id as the create's id
  field (``source.id`` as ``sourceId``);
- a column of the list that the create has no field for (``id``, ``createdAt``,
  ``processingStatus``, the lead's current status) is left out, and a note says so: an
  import creates new leads, and those fields are the service's to set. It is never sent
  as a lead field.

Any other column is a typo: exit 2 naming the closest fields, before anything is read or
sent, unless the create schema declares that it takes fields it does not list
(``additionalProperties`` true or a schema). A column that could be two fields is exit 2
naming both (``--map COLUMN=PATH`` says which). Everything here is linear in the number
of columns: a header of a million columns is read once.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.contract.operations import curated
from leadctl.errors import UsageError
from leadctl.inputs.lead_fields import lead_schema
from leadctl.output.columns import EACH, split_path
from leadctl.output.response_columns import response_fields

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation
    from leadctl.inputs.lead_fields import LeadSchema
    from leadctl.output.response_columns import ResponseFields
    from leadctl.verbkit.invocation import RequestInvocation

COLLECT = "[]"
# A column name: a dot path whose steps may take [] (tags[], tags[].name).
_FIELD_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\[\])?(?:\.[A-Za-z_][A-Za-z0-9_]*(?:\[\])?)*$")
# How many mapped or left-out columns a note names before it says "and N more".
NOTED = 8
SHOWN_MATCHES = 3


@dataclass(frozen=True)
class ColumnPlan:
    """What the row reader does with each column: read it as another field (``renames``)
    or leave it out (``ignored``); ``header`` is the header of the fields that are read."""

    renames: dict[str, str]
    ignored: frozenset[str]
    header: bytes


def plan_columns(
    ctx: RequestInvocation, op: Operation, header: bytes, renames: Mapping[str, str]
) -> ColumnPlan:
    """The plan for a CSV header, ``--map`` renames first; exit 2 for a column that names
    no lead field. Notes on stderr say which columns were read as other fields or left
    out."""

    try:
        names = [n.strip() for n in next(csv.reader([header.decode("utf-8", "replace")]), [])]
    except csv.Error:
        # Not a header leadctl can read (a bare CR in it): the row reader says why.
        return ColumnPlan(dict(renames), frozenset(), header)
    missing = set(renames) - set(names)
    if missing:
        raise UsageError(
            f"--map names column {min(missing)!r}, which the file does not have",
            hint=f"its columns: {_listed(names)}",
        )
    shape = lead_schema(ctx, op)
    if shape is None or not all(_FIELD_PATH.match(renames.get(n, n)) for n in names):
        # No lead fields listed: every column goes as named. A first row that is not
        # field names (data, no header): the row reader says so.
        return ColumnPlan(dict(renames), frozenset(), header)
    resolver = _Resolver(shape, _list_item(ctx))
    plan_renames: dict[str, str] = {}
    ignored: set[str] = set()
    for name in dict.fromkeys(names):
        target = resolver.target(renames.get(name, name))
        if target is None:
            ignored.add(name)
        elif target != name:
            plan_renames[name] = target
    kept = [plan_renames.get(name, name) for name in names if name not in ignored]
    if ignored and not kept:
        raise UsageError(
            "none of the columns is a field a lead is created with: "
            f"{_listed(sorted(ignored))} are the service's",
            hint=f"lead fields: {', '.join(sorted(shape.leaves)[:12])}",
        )
    _note(ctx, {n: t for n, t in plan_renames.items() if n not in renames}, ignored)
    for name, hint in resolver.unlisted.items():
        ctx.ios.warn(
            f"column {name!r} is not a field the lead lists; it is sent as an extra field "
            f"its schema takes{f' ({hint})' if hint else ''}"
        )
    return ColumnPlan(plan_renames, frozenset(ignored), _csv_line(kept))


def _list_item(ctx: RequestInvocation) -> ResponseFields | None:
    """The fields of a lead as the list shows them (what an export's columns are)."""

    return response_fields(ctx, curated(ctx, "POST", "/leads/all/my"))


class _Resolver:
    """Column name -> the create field it is read as (None: left out), memoised: a wide
    file repeats names (``tags[]``) and each costs one look-up."""

    def __init__(self, shape: LeadSchema, list_item: ResponseFields | None) -> None:
        self._shape = shape
        self._list_item = list_item
        self._by_leaf: dict[str, list[str]] = {}
        for path in shape.leaves:
            self._by_leaf.setdefault(path.rsplit(".", 1)[-1], []).append(path)
        self._known: dict[str, str | None] = {}
        # Columns sent as fields the schema does not list, with their did-you-mean.
        self.unlisted: dict[str, str | None] = {}

    def target(self, name: str) -> str | None:
        if name not in self._known:
            self._known[name] = self._resolve(name)
        return self._known[name]

    def _resolve(self, name: str) -> str | None:
        shape = self._shape
        collect = name.endswith(COLLECT)
        path = name[: -len(COLLECT)] if collect else name
        if path in shape.leaves or path in shape.objects:
            return name
        found = self._export_field(path)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise UsageError(
                f"column {name!r} could be any of the lead fields {', '.join(found)}",
                hint=f"say which with --map '{name}=PATH'",
            )
        if self._list_item is not None and self._list_item.knows(path):
            return None
        if _takes_unlisted(shape, path):
            # Valid (the schema welcomes other fields), but a near miss is likely a typo.
            self.unlisted[name] = self._unknown(path).hint
            return name
        raise self._unknown(path)

    def _unknown(self, path: str) -> UsageError:
        """Exit 2 with the closest fields: by whole path, or by leaf name (``frstName``
        is close to ``contact.firstName``)."""
        import difflib

        paths = list(self._shape.leaves)
        close = difflib.get_close_matches(path, paths, n=SHOWN_MATCHES, cutoff=0.6)
        leaf = path.rsplit(".", 1)[-1]
        for match in difflib.get_close_matches(leaf, list(self._by_leaf), n=SHOWN_MATCHES):
            close += [p for p in self._by_leaf[match] if p not in close]
        hint = f"did you mean {', '.join(close[:SHOWN_MATCHES])}? " if close else ""
        return UsageError(
            f"column {path!r} is not a field of the active contract's lead",
            hint=f"{hint}lead fields: {_listed(sorted(paths), 16)}; --map COLUMN=PATH reads "
            "a column as a field",
        )

    def _export_field(self, path: str) -> list[str]:
        """The create fields a list column stands for (see the module docstring)."""
        parts = split_path(path)
        leaves = self._shape.leaves
        if len(parts) == 1:
            same = self._by_leaf.get(path, [])
            if same:
                return same
            # A phone the list shows as a number, the create as an object with one.
            return [
                f"{obj}.number"
                for obj in self._shape.objects
                if obj.rsplit(".", 1)[-1] == path and f"{obj}.number" in leaves
            ]
        if len(parts) == 3 and parts[1] == EACH and parts[2] in ("name", "id"):
            base = parts[0]
            one = base[:-1] if base.endswith("s") else base
            wanted = f"{one}Names" if parts[2] == "name" else f"{one}Ids"
            found = self._by_leaf.get(wanted, [])
            if parts[2] == "name":
                found = found + [p for p in self._by_leaf.get(base, []) if self._strings(p)]
            return found
        if len(parts) == 2 and parts[1] == "id":
            return self._by_leaf.get(f"{parts[0]}Id", [])
        return []

    def _strings(self, path: str) -> bool:
        """A list of plain strings (names), as the create's ``tags`` may be."""
        doc, schema = self._shape.doc, self._shape.leaves[path]
        items = doc.keyword(schema, "items") if doc.type_of(schema) == "array" else None
        return items is not None and doc.type_of(items) == "string"


def _takes_unlisted(shape: LeadSchema, path: str) -> bool:
    """The nearest object around ``path`` says it takes fields it does not list."""
    parts = path.split(".")[:-1]
    while parts and ".".join(parts) not in shape.objects:
        parts.pop()
    around = shape.objects[".".join(parts)] if parts else shape.schema
    extra = shape.doc.keyword(around, "additionalProperties")
    return extra is True or isinstance(extra, Mapping)


def _note(ctx: RequestInvocation, mapped: Mapping[str, str], ignored: set[str]) -> None:
    if mapped:
        pairs = [f"{name} as {target}" for name, target in mapped.items()]
        ctx.ios.info(f"reading columns as the lead's fields: {_listed(pairs)}")
    if ignored:
        ctx.ios.info(
            f"leaving out columns the service sets (an import creates new leads): "
            f"{_listed(sorted(ignored))}"
        )


def _listed(items: list[str], limit: int = NOTED) -> str:
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def _csv_line(names: list[str]) -> bytes:
    import io

    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(names)
    return out.getvalue().encode("utf-8")

"""The columns a command prints, from the active contract's response schema.

Two jobs, both before the first request:

- ``--columns`` is checked against the fields the operation's answer has (every format:
  table, csv, json...). A path the schema does not have is exit 2 naming the ones it has;
  where the schema cannot tell (no JSON schema, a free-form object, an object that declares
  ``additionalProperties``), the path is left to the data (:mod:`leadctl.output.registry`
  checks it against the first item).
- A curated command's default columns are kept where the schema has their fields; one it
  lacks (``state``, ``status.name`` on a service whose leads carry ``currentLeadStatus``)
  is replaced by the next column the contract's own choice offers (what a generated verb
  shows), so no column is empty on every row because the schema lacks it.

The contract is read only when one of these is needed: ``--columns`` given, or default
columns drawn (not for ``-o json``, which prints the answer as received).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from leadctl.contract.body_schema import json_response_schema, operation_spec
from leadctl.errors import UsageError
from leadctl.output.columns import EACH, Column, columns_from, split_path
from leadctl.output.registry import prints_as_received
from leadctl.output.requested import remember_checked, requested_paths

if TYPE_CHECKING:
    from leadctl.contract.document import Document
    from leadctl.contract.operations import Operation
    from leadctl.output.invocation import OutputInvocation

# How deep the known-fields list of an unknown --columns goes (tags[].name is 2).
LISTED_DEPTH = 3
SHOWN_MATCHES = 3
_SCALARS = ("string", "integer", "number", "boolean", "null")


def output_columns(
    ctx: OutputInvocation,
    op: Operation,
    defaults: Sequence[Column],
    *,
    within: str | None = None,
    from_contract: bool = False,
) -> list[Column]:
    """``defaults`` fitted to the answer of ``op`` (of the list at property ``within`` of
    it, e.g. an automation's ``runs``), after checking ``--columns`` against it.

    ``from_contract``: the defaults were chosen from this contract already (generated
    verbs), so only ``--columns`` is checked.
    """

    requested = requested_paths(ctx)
    drawn = not requested and not from_contract and not prints_as_received(ctx)
    if not requested and not drawn:
        return list(defaults)
    fields = response_fields(ctx, op, within=within)
    if fields is None:
        return list(defaults)
    if requested:
        _check(ctx, fields, requested, defaults)
        return list(defaults)
    return fitted(defaults, fields, columns_of(op) if within is None else [])


# -- the answer's fields ---------------------------------------------------------------------


class ResponseFields(NamedTuple):
    """The fields of an answer (one item of a list), as the schema describes them."""

    doc: Document
    schema: Any

    def knows(self, path: str) -> bool | None:
        """True when the schema has the field, False when it cannot (a typo), None when
        it cannot tell (a free-form or open object on the way)."""
        node = self.schema
        for part in split_path(path):
            kind = _kind(self.doc, node)
            if kind == "array":
                node = self.doc.keyword(node, "items") or {}
                if part == EACH or part.lstrip("-").isdigit():
                    continue
                kind = _kind(self.doc, node)
            if kind == "open":
                return None
            if kind != "object":
                return False
            properties = self.doc.properties(node)
            if part not in properties:
                return None if self._open(node) else False
            node = properties[part]
        return True

    def listed(self) -> list[str]:
        """Every field, leaves first by the schema's order: ``status.name``, ``tags[].name``."""
        found: list[str] = []
        self._walk(self.schema, "", 0, found)
        return found

    def _walk(self, node: Any, prefix: str, depth: int, found: list[str]) -> None:
        kind = _kind(self.doc, node)
        if kind == "array" and depth < LISTED_DEPTH:
            items = self.doc.keyword(node, "items") or {}
            if _kind(self.doc, items) == "object":
                self._walk(items, f"{prefix}[]", depth, found)
                return
        if kind == "object" and depth < LISTED_DEPTH and self.doc.properties(node):
            for name, sub in self.doc.properties(node).items():
                self._walk(sub, f"{prefix}.{name}" if prefix else name, depth + 1, found)
            return
        if prefix:
            found.append(prefix)

    def _open(self, node: Any) -> bool:
        """An object that takes properties it does not list: ``additionalProperties``
        true or a schema, or no properties listed at all."""
        extra = self.doc.keyword(node, "additionalProperties")
        return not self.doc.properties(node) or (extra is not None and extra is not False)


def _kind(doc: Document, node: Any) -> str:
    """object, array, a scalar type, or open (no type said: any value)."""
    kind = doc.type_of(node)
    if kind == "object" or (kind is None and doc.properties(node)):
        return "object"
    if kind == "array" or kind in _SCALARS:
        return kind
    return "open"


def response_fields(
    ctx: OutputInvocation, op: Operation, *, within: str | None = None
) -> ResponseFields | None:
    """The fields of ``op``'s successful JSON answer (of one item, for a list or a page);
    None when the contract shows no JSON schema for it."""
    found = operation_spec(ctx, op)
    doc = found.doc
    schema = json_response_schema(doc, found.spec)
    if schema is None:
        return None
    if op.paged and "items" in doc.properties(schema):
        schema = doc.properties(schema)["items"]
    elif within is not None and within in doc.properties(schema):
        schema = doc.properties(schema)[within]
    if _kind(doc, schema) == "array":
        schema = doc.keyword(schema, "items") or {}
    return None if _kind(doc, schema) == "open" else ResponseFields(doc, schema)


# -- --columns ------------------------------------------------------------------------------


def _check(
    ctx: OutputInvocation,
    fields: ResponseFields,
    requested: Sequence[str],
    defaults: Sequence[Column],
) -> None:
    """Exit 2 for a requested path the schema does not have; the ones it cannot tell are
    left for the data to decide."""
    aliases = {column.title: column.path for column in defaults}
    confirmed: set[str] = set()
    unknown: list[str] = []
    for raw in requested:
        path = raw if fields.knows(raw) is not False else aliases.get(raw, raw)
        known = fields.knows(path)
        if known is False:
            unknown.append(raw)
        elif known:
            confirmed.add(raw)
    listed = fields.listed()
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        close = [
            match
            for path in unknown
            for match in difflib.get_close_matches(path, listed, n=SHOWN_MATCHES, cutoff=0.6)
        ]
        hint = f"did you mean {', '.join(dict.fromkeys(close))}? " if close else ""
        raise UsageError(
            f"unknown field{plural} in --columns: {', '.join(unknown)}",
            hint=f"{hint}known fields: {', '.join(listed)}",
        )
    remember_checked(ctx, confirmed=frozenset(confirmed), known=listed)


# -- default columns --------------------------------------------------------------------------


def fitted(
    defaults: Sequence[Column], fields: ResponseFields, choice: Sequence[Column]
) -> list[Column]:
    """``defaults`` where the schema has their fields; each one it lacks replaced, in
    its place, by the next column of ``choice`` not shown yet."""
    kept = [column for column in defaults if fields.knows(column.path) is not False]
    shown = {column.path for column in kept}
    spare = iter([c for c in choice if c.path not in shown and fields.knows(c.path)])
    out: list[Column] = []
    for column in defaults:
        if fields.knows(column.path) is not False:
            out.append(column)
            continue
        substitute = next(spare, None)
        if substitute is not None:
            out.append(_colored(substitute, column, fields))
    return out


def _colored(substitute: Column, replaced: Column, fields: ResponseFields) -> Column:
    """The replaced column's color, when the new one names an object that has one too
    (``currentLeadStatus.name`` in ``currentLeadStatus.color``)."""
    if replaced.color_path is None or "." not in substitute.path:
        return substitute
    color = substitute.path.rsplit(".", 1)[0] + ".color"
    return replace(substitute, color_path=color) if fields.knows(color) else substitute


def columns_of(op: Operation) -> list[Column]:
    """The columns the contract's compiled index chose for an operation's answer."""
    return columns_from(op.response.columns)

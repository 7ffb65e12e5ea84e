"""Field paths (``contact.firstName``, ``tags[]``, ``a[b]``) resolved against a body schema.

One resolution for every place a person or a file names a body field: ``--field`` of
``leads create`` and of generated verbs, ``leads import`` columns and ``batch`` lines
(cli.md "Commands"). A path the schema does not list is a typo, not data (exit 2 with the
closest names): the service would drop it and the value would be lost without a word.
Except where the schema says more fields are welcome, level by level: an object that
declares ``additionalProperties`` true or a schema (a map, an extension-data bag), or one
that lists no properties at all. ``additionalProperties`` left out of an object that lists
its properties does not make it open: that is what most generators write for a closed DTO.
Polymorphic objects (several ``oneOf``/``anyOf`` shapes) know the fields of every shape.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError

if TYPE_CHECKING:
    from leadctl.contract.document import Document

SHOWN_MATCHES = 3
MATCH_CUTOFF = 0.6
# Suggestions this much less alike than the best one only distract.
MATCH_SPREAD = 0.1
LISTED_DEPTH = 4
ITEM = "[]"  # a step into a list's items
_INDEX = re.compile(r"\[\d*\]")
_BRACKETED = re.compile(r"\[([^\]]+)\]")


class Open:
    """Below this point the schema describes nothing: any path is accepted, untyped."""


OPEN = Open()


class UnknownField(UsageError):
    """A field path the schema closes out; nothing was sent."""


def steps_of(path: str) -> list[str]:
    """``a.b[].c``, ``a[b]``, ``tags[0]`` as steps: names, and ITEM for a list's items."""
    shaped = _BRACKETED.sub(lambda m: f".{m.group(1)}", _INDEX.sub(ITEM, path))
    steps: list[str] = []
    for part in shaped.split("."):
        name = part.replace(ITEM, "")
        if name:
            steps.append(name)
        steps += [ITEM] * part.count(ITEM)
    return steps


class FieldPaths:
    """The fields a body schema lists, and where it takes fields it does not list."""

    def __init__(self, doc: Document, schema: Any, *, noun: str = "the request body") -> None:
        self.doc = doc
        self.schema = schema
        self.noun = noun
        # Rows of an import name the same paths: each is resolved once.
        self._resolved: dict[tuple[str, str], Any] = {}

    # -- one path ----------------------------------------------------------------------

    def resolve(self, path: str, *, what: str = "--field") -> Any:
        """The schema of the value at ``path``, OPEN where the schema takes anything; an
        UnknownField naming the closest paths where it closes the path out."""
        key = (path, what)
        if key not in self._resolved:
            try:
                self._resolved[key] = self._resolve(path, what)
            except UnknownField as error:
                self._resolved[key] = error
        found = self._resolved[key]
        if isinstance(found, UnknownField):
            raise found
        return found

    def _resolve(self, path: str, what: str) -> Any:
        node: Any = self.schema
        walked: list[str] = []
        for step in steps_of(path):
            if node is OPEN:
                return OPEN
            node = self._step(node, step, walked, path, what)
            walked.append(step)
        return node

    def _step(self, node: Any, step: str, walked: list[str], path: str, what: str) -> Any:
        doc = self.doc
        kind = doc.type_of(node)
        if step == ITEM:
            if kind == "array":
                return doc.keyword(node, "items") or OPEN
            if kind is None and not self._properties(node):
                return OPEN
            raise UnknownField(f"{what} {path!r}: {_joined(walked) or 'the body'} is not a list")
        properties = self._properties(node)
        if step in properties:
            return properties[step]
        if kind not in ("object", None):
            raise UnknownField(
                f"{what} {path!r}: {_joined(walked)} is a {kind}, it has no field {step!r}"
            )
        extra = self._other_fields(node, step, listed=bool(properties))
        if extra is None:
            raise self._unknown(path, walked, what)
        return extra

    def _properties(self, node: Any) -> dict[str, Any]:
        """Its own properties and those of each of its shapes (oneOf/anyOf)."""
        found = dict(self.doc.properties(node))
        for shape in self._shapes(node):
            for name, sub in self.doc.properties(shape).items():
                found.setdefault(name, sub)
        return found

    def _shapes(self, node: Any) -> Iterator[Any]:
        for branch in self.doc.branches(node):
            for key in ("oneOf", "anyOf"):
                options = [o for o in branch.get(key, ()) if self.doc.type_of(o) != "null"]
                if len(options) > 1:
                    yield from options

    def _other_fields(self, node: Any, name: str, *, listed: bool) -> Any:
        """The schema a field the object does not list takes (OPEN: anything), or None
        when the object takes no such field."""
        declared: list[Any] = []
        for branch in self.doc.branches(node):
            for pattern, sub in (branch.get("patternProperties") or {}).items():
                if _matches(str(pattern), name):
                    return sub
            for key in ("additionalProperties", "unevaluatedProperties"):
                if key in branch:
                    declared.append(branch[key])
        if any(value is False for value in declared):
            return None
        for value in declared:
            if isinstance(value, Mapping):
                return value if value else OPEN
            if value is True:
                return OPEN
        if any(not self.doc.properties(shape) for shape in self._shapes(node)):
            return OPEN  # one of its shapes lists nothing: it may be anything
        return None if listed else OPEN

    # -- a whole value -----------------------------------------------------------------

    def unknown_in(self, value: Any, *, what: str = "") -> UnknownField | None:
        """The first path of ``value`` (an object from a line or --data) the schema closes
        out, as the error to report; None when every path is known or welcome."""
        for path in _paths(value):
            try:
                self.resolve(path, what=what)
            except UnknownField as error:
                return error
        return None

    # -- did you mean ------------------------------------------------------------------

    def known(self) -> list[str]:
        """Every listed path, a few levels deep (list items as ``name[].field``)."""
        found: list[str] = []
        self._list(self.schema, "", 0, found)
        return found

    def _list(self, node: Any, prefix: str, depth: int, found: list[str]) -> None:
        if depth > LISTED_DEPTH:
            return
        for name, sub in self._properties(node).items():
            path = f"{prefix}{name}"
            found.append(path)
            inner = self.doc.keyword(sub, "items") if self.doc.type_of(sub) == "array" else None
            if inner is not None and self._properties(inner):
                self._list(inner, f"{path}[].", depth + 1, found)
            elif self._properties(sub):
                self._list(sub, f"{path}.", depth + 1, found)

    def _unknown(self, path: str, walked: list[str], what: str) -> UnknownField:
        known = self.known()
        tail = steps_of(path)[len(walked)]
        here = _joined(walked)
        siblings = [p for p in known if _parent(p) == here]
        # The same field under another parent (firstName -> contact.firstName) is the
        # answer when there is one; spelling neighbours would only distract.
        close = [p for p in known if _leaf(p).lower() == tail.lower() and p != path]
        if not close:
            close = [_child(here, name) for name in _closest(tail, [_leaf(p) for p in siblings])]
        if not close:
            close = _closest(path, known)
        where = f"{here} has" if here else "fields are"
        hint = (
            f"did you mean {', '.join(close[:SHOWN_MATCHES])}?"
            if close
            else f"{where}: {', '.join(_leaf(p) for p in siblings[:12]) or 'none listed'}"
        )
        subject = f"{what} {path!r}" if what else repr(path)
        return UnknownField(f"{subject} is not a field of {self.noun}", hint=hint)


def _closest(typed: str, names: list[str]) -> list[str]:
    """The names nearest ``typed``: the best, and any nearly as close (fistName gets
    firstName, not lastName too)."""
    scored = sorted(
        (
            (difflib.SequenceMatcher(None, typed.lower(), name.lower()).ratio(), name)
            for name in names
        ),
        reverse=True,
    )
    if not scored or scored[0][0] < MATCH_CUTOFF:
        return []
    best = scored[0][0]
    return [name for score, name in scored[:SHOWN_MATCHES] if score >= best - MATCH_SPREAD]


def _paths(value: Any, prefix: str = "") -> Iterator[str]:
    """The leaf paths of an object, lists of objects walked item by item."""
    if isinstance(value, Mapping):
        for key, sub in value.items():
            path = f"{prefix}{key}"
            if isinstance(sub, Mapping) and sub:
                yield from _paths(sub, f"{path}.")
            elif isinstance(sub, list) and any(isinstance(item, Mapping) for item in sub):
                for item in sub:
                    yield from _paths(item, f"{path}[].") if isinstance(item, Mapping) else ()
            else:
                yield path


def _matches(pattern: str, name: str) -> bool:
    try:
        return re.search(pattern, name) is not None
    except re.error:
        return False


def _joined(steps: list[str]) -> str:
    text = ""
    for step in steps:
        text += step if step == ITEM or not text else f".{step}"
    return text


def _leaf(path: str) -> str:
    return path.rsplit(".", 1)[-1].removesuffix(ITEM)


def _parent(path: str) -> str:
    return path.rsplit(".", 1)[0] if "." in path else ""


def _child(parent: str, name: str) -> str:
    return f"{parent}.{name}" if parent else name

"""Each ``default`` in a contract against the schema it is the default of: one it does not
admit is a warning with its place, never a reason to leave an operation out (issue 32: 81
operations of Cloudflare's public contract were left out for a default alone). A default
documents what the service does with a value left out; leadctl shows it in help and never
sends it.

Each default is checked against its own schema in 3.1 form, that schema's ``$ref``s
resolved in the document, on jsonschema-rs. The validator of each holds only the
components that schema reaches (its ``$ref``s, theirs, and so on), each rewritten in 3.1
form once: a validator over every component for each default was 88% of importing that
contract (13.1 s, 3,701 components).

Each schema is checked where it is written, once (a component at its component); a
``$ref`` is not followed into what it points at, which is checked at its own place.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from leadctl.contract.budget import Budget
from leadctl.contract.document import Document, pointer_parts, refs_under
from leadctl.contract.formats import schema_to_31, to_31
from leadctl.contract.openapi_meta import DRAFT_2020_12, refuse_fetch
from leadctl.contract.openapi_semantics import NESTED, holder_schemas, schema_holders

Location = tuple[str, ...]


def default_problems(
    document: Mapping[str, Any], version: str, budget: Budget
) -> Iterator[tuple[Location, str]]:
    """(the place of the ``default``, what is wrong with it) for each default its schema
    does not admit, in document order."""
    check = _DefaultCheck(document, version)
    for _owner, place, kind, holder in schema_holders(document):
        budget.check("checking the document's defaults")
        if kind == "parameters":
            written = holder if isinstance(holder, list) else ()
            schemas = [
                found
                for index, parameter in enumerate(written)
                for found in holder_schemas((*place, str(index)), parameter)
            ]
        elif kind == "schema":
            schemas = [(place, holder)]
        else:
            schemas = list(holder_schemas(place, holder))
        for where, top in schemas:
            for inner, schema in _with_defaults(where, top):
                yield from (((*inner, "default"), m) for m in check.problems(schema))


def _with_defaults(place: Location, top: Any) -> Iterator[tuple[Location, Mapping[str, Any]]]:
    """The schemas written here (``top`` and those nested in it, not through a $ref) that
    have a default, each with its place."""
    pending: list[tuple[Location, Any]] = [(place, top)]
    while pending:
        where, schema = pending.pop()
        if not isinstance(schema, Mapping) or "$ref" in schema:
            continue
        if "default" in schema:
            yield where, schema
        pending.extend(reversed(_nested(where, schema)))


def _nested(where: Location, schema: Mapping[str, Any]) -> list[tuple[Location, Any]]:
    found: list[tuple[Location, Any]] = []
    for key in NESTED:
        if isinstance(schema.get(key), list):
            found += [((*where, key, str(i)), sub) for i, sub in enumerate(schema[key])]
    found += [((*where, key), schema[key]) for key in ("not", "items") if key in schema]
    if isinstance(schema.get("properties"), Mapping):
        found += [
            ((*where, "properties", str(name)), sub) for name, sub in schema["properties"].items()
        ]
    return found


class _DefaultCheck:
    """Whether a default satisfies the schema it is the default of, in 3.1 form."""

    def __init__(self, document: Mapping[str, Any], version: str) -> None:
        self.doc = Document(document)
        self.version = version
        # Each component a default's schema reached: its 3.1 form (None: not there) and
        # the components its own $refs point into.
        self._converted: dict[str, Any] = {}
        self._uses: dict[str, set[str]] = {}

    def problems(self, schema: Mapping[str, Any]) -> Iterator[str]:
        import jsonschema_rs

        value = schema["default"]
        if value is None and schema.get("nullable") is True:
            return
        root = {
            "$schema": DRAFT_2020_12,
            "components": self._components_for(schema),
            "allOf": [schema_to_31(dict(schema)) if self.version == "3.0" else schema],
        }
        try:
            validator = jsonschema_rs.validator_for(
                root, validate_formats=True, retriever=refuse_fetch
            )
        except (jsonschema_rs.ValidationError, jsonschema_rs.ReferencingError, ValueError):
            return  # not a schema, or a $ref to nowhere: the other checks say why
        for error in validator.iter_errors(value):
            inside = "/".join(str(part) for part in error.instance_path)
            yield f"{inside}: {error.message}" if inside else str(error.message)

    def _components_for(self, schema: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The components ``schema`` reaches through its $refs, theirs and so on, under
        their kinds as in the document (``{"schemas": {"Lead": ...}}``), in 3.1 form."""
        found: dict[str, dict[str, Any]] = {}
        seen: set[str] = set()
        pending = list(refs_under(schema))
        while pending:
            component = pending.pop()
            if component in seen:
                continue
            seen.add(component)
            converted = self._converted_component(component)
            if converted is None:
                continue
            _, kind, name = pointer_parts(component)
            found.setdefault(kind, {})[name] = converted
            pending.extend(self._uses[component])
        return found

    def _converted_component(self, component: str) -> Any:
        if component not in self._converted:
            try:
                value = self.doc.pointer(component)
            except (KeyError, IndexError, ValueError, TypeError):
                self._converted[component] = None
                self._uses[component] = set()
                return None
            self._uses[component] = refs_under(value)
            if self.version == "3.0":
                _, kind, name = pointer_parts(component)
                rewritten = to_31({"openapi": "3.0.3", "components": {kind: {name: value}}})
                value = rewritten["components"][kind][name]
            self._converted[component] = value
        return self._converted[component]

"""Which operations of an OpenAPI 3.0, 3.1 or 3.2 document leadctl can build commands from.

Only a document that is not OpenAPI 3 at all (not an object, Swagger 2.0, no openapi
version) is refused outright. Of any other, leadctl imports what is sound: every problem
found is traced to the operations it touches (one inside an operation, its operation; one in
a path item's shared parameters, every operation of the path; one in a component, every
operation that uses it, directly or through other components), and those operations are
left out with their reasons. Problems outside any operation (info, tags, servers) are listed
and change nothing; so is a ``default`` its own schema does not admit, a warning with its
place (``openapi_defaults.py``). A document with no sound operation left is refused.

Problems come from two layers: the OpenAPI rules of the document's own version (the
published meta-schema, every schema in the document against the version's schema dialect,
in one jsonschema-rs pass: ``openapi_meta.py``; and the rules no meta-schema states, such as
unique operationIds: ``openapi_semantics.py``), each problem at its place; then what
leadctl relies on: local ``$ref``s only, one operation per METHOD and path template
(``/a/{id}`` and ``/a/{key}`` are one), and well-formed ``x-leadctl-*`` extensions.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from leadctl.contract import HTTP_METHODS
from leadctl.contract.budget import CHECK_EVERY, Budget
from leadctl.contract.document import Document, escape, operations, pointer_to, refs_under
from leadctl.contract.formats import openapi_version
from leadctl.contract.openapi_defaults import default_problems
from leadctl.contract.openapi_meta import meta_problems
from leadctl.contract.openapi_semantics import semantic_problems
from leadctl.contract.templates import template_key
from leadctl.errors import UsageError

SHOWN_PROBLEMS = 10
MESSAGE_LIMIT = 240
CREDENTIAL_KINDS = frozenset({"org", "user", "source"})
# Where a problem is: the JSON path of the node it is about.
Location = tuple[str, ...]


class ContractInvalid(UsageError):
    """The document has no operation leadctl can use; nothing was stored."""

    def __init__(self, what: str, problems: list[str], version: str = "3.1") -> None:
        super().__init__(f"{what} is not a usable OpenAPI {version} contract")
        self.problems = problems

    def detail_lines(self) -> list[str]:
        lines = [f"  {problem}" for problem in self.problems[:SHOWN_PROBLEMS]]
        if len(self.problems) > SHOWN_PROBLEMS:
            lines.append(f"  ... and {len(self.problems) - SHOWN_PROBLEMS} more")
        return lines + super().detail_lines()

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["problems"] = self.problems
        return body


@dataclass
class Checked:
    """The sound part of a document, and what was left out of it and why."""

    # A copy of the document without the operations left out.
    document: dict[str, Any]
    # [{"operation": "PUT /sources/{id}", "operationId": ..., "reasons": [...]}]
    left_out: list[dict[str, Any]] = field(default_factory=list)
    # Problems outside any operation: listed, nothing else.
    ignored: list[str] = field(default_factory=list)
    # Defaults their schemas do not admit, kept as written:
    # [{"pointer": "#/components/schemas/Lead/properties/size/default", "message": ...}]
    warnings: list[dict[str, str]] = field(default_factory=list)


def check_contract(document: Any, *, what: str, budget: Budget) -> Checked:
    """The operations of ``document`` leadctl can use; exit 2 for a document that is not
    OpenAPI 3, or that has no sound operation."""

    if not isinstance(document, Mapping):
        raise ContractInvalid(what, ["the document is not a JSON object"])
    version = openapi_version(document)
    if not isinstance(document.get("paths", {}), Mapping):
        problems = ["paths is not an object: the document has no operations"]
        raise ContractInvalid(what, problems, version)
    found = _Problems(document)
    found.add_all(_reference_problems(document, budget))
    found.add_all(_duplicate_operations(document))
    found.add_all(_path_template_problems(document))
    found.add_all(_extension_problems(document))
    # The validator stops at the first $ref it cannot follow: it sees the document without
    # what those break.
    working = found.without_broken(document)
    found.add_all(_spec_problems(working, version, budget))
    sound = found.without_broken(working)
    if not any(True for _ in operations(sound)):
        problems = found.all_messages() or ["the document has no operations"]
        raise ContractInvalid(what, problems, version)
    warnings = [
        {"pointer": pointer_to(location), "message": _clip(message)}
        for location, message in default_problems(sound, version, budget)
    ]
    return Checked(sound, found.left_out(), found.ignored, warnings)


# -- tracing problems to operations -------------------------------------------------------


def _component(location: Location) -> str | None:
    """``#/components/schemas/Lead`` for any place inside that component."""
    if len(location) >= 3 and location[0] == "components":
        return pointer_to(location[:3])
    return None


class _Problems:
    """Problems by where they are, and what they break."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.by_operation: dict[tuple[str, str], list[str]] = {}
        self.by_component: dict[str, list[str]] = {}
        self.ignored: list[str] = []

    def add_all(self, found: Iterator[tuple[Location, str]]) -> None:
        for location, message in found:
            self.add(location, message)

    def add(self, location: Location, message: str) -> None:
        component = _component(location)
        if component is not None:
            found = _clip(_within(location[3:], message))
            _append(self.by_component.setdefault(component, []), found)
        elif len(location) >= 3 and location[0] == "paths" and location[2] in HTTP_METHODS:
            found = _clip(_within(location[3:], message))
            _append(self.by_operation.setdefault((location[1], location[2]), []), found)
        elif len(location) >= 2 and location[0] == "paths":
            found = _clip(_within(location[2:], message))
            item = (self.document.get("paths") or {}).get(location[1])
            for method in HTTP_METHODS:
                if isinstance(item, Mapping) and isinstance(item.get(method), Mapping):
                    _append(self.by_operation.setdefault((location[1], method), []), found)
        else:
            _append(self.ignored, _clip(_within(location, message)))

    def _broken_components(self, document: Mapping[str, Any]) -> set[str]:
        """Components with a problem, and those that use one, however indirectly."""
        broken = set(self.by_component)
        if not broken:
            return broken  # what each component uses is a walk of them all: not needed
        uses = _component_uses(document)
        changed = True
        while changed:
            changed = False
            for component, used in uses.items():
                if component not in broken and used & broken:
                    broken.add(component)
                    changed = True
        return broken

    def _reasons(
        self, document: Mapping[str, Any], broken: set[str]
    ) -> dict[tuple[str, str], list[str]]:
        reasons = {key: list(messages) for key, messages in self.by_operation.items()}
        if not broken:
            return reasons
        for (path, method), used in _operation_uses(document).items():
            for component in sorted(used & broken):
                own = self.by_component.get(component)
                message = (
                    f"uses {component}: {own[0]}"
                    if own
                    else f"uses {component}, which uses a component with a problem"
                )
                _append(reasons.setdefault((path, method), []), message)
        return reasons

    def without_broken(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """A copy without the operations these problems touch, and without the broken
        components (a $ref to nowhere must not reach the validator)."""
        broken = self._broken_components(document)
        reasons = self._reasons(document, broken)
        pruned: dict[str, Any] = copy.copy(dict(document))
        paths: dict[str, Any] = {}
        for path, item in (document.get("paths") or {}).items():
            if not isinstance(item, Mapping):
                paths[path] = item
                continue
            kept = {k: v for k, v in item.items() if (path, k) not in reasons}
            if any(isinstance(kept.get(m), Mapping) for m in HTTP_METHODS):
                paths[path] = kept
        pruned["paths"] = paths
        components = document.get("components")
        if broken and isinstance(components, Mapping):
            pruned["components"] = {
                kind: (
                    {
                        name: value
                        for name, value in named.items()
                        if f"#/components/{kind}/{escape(str(name))}" not in broken
                    }
                    if isinstance(named, Mapping)
                    else named
                )
                for kind, named in components.items()
            }
        return pruned

    def left_out(self) -> list[dict[str, Any]]:
        reasons = self._reasons(self.document, self._broken_components(self.document))
        out = []
        for path, item in (self.document.get("paths") or {}).items():
            for method in HTTP_METHODS:
                if (path, method) not in reasons:
                    continue
                spec = item.get(method) if isinstance(item, Mapping) else None
                operation_id = spec.get("operationId") if isinstance(spec, Mapping) else None
                out.append(
                    {
                        "operation": f"{method.upper()} {path}",
                        "operationId": str(operation_id) if operation_id else None,
                        "reasons": reasons[(path, method)],
                    }
                )
        return out

    def all_messages(self) -> list[str]:
        messages = [
            f"{entry['operation']}: {reason}"
            for entry in self.left_out()
            for reason in entry["reasons"]
        ]
        return messages + self.ignored


def _within(inner: Location, message: str) -> str:
    """The message, after where inside its operation or component it is."""
    return f"{'/'.join(inner)}: {message}" if inner else message


def _append(messages: list[str], message: str) -> None:
    if message not in messages:
        messages.append(message)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _component_uses(document: Mapping[str, Any]) -> dict[str, set[str]]:
    uses: dict[str, set[str]] = {}
    for kind, named in (document.get("components") or {}).items():
        if isinstance(named, Mapping):
            for name, value in named.items():
                uses[f"#/components/{kind}/{escape(str(name))}"] = refs_under(value)
    return uses


def _operation_uses(document: Mapping[str, Any]) -> dict[tuple[str, str], set[str]]:
    """The components each operation uses (its own $refs, its path item's parameters',
    and the security schemes its requirements name)."""
    direct = _component_uses(document)
    schemes = (document.get("components") or {}).get("securitySchemes") or {}
    uses: dict[tuple[str, str], set[str]] = {}
    for path, method, spec in operations(document):
        item = document["paths"][path]
        found = refs_under(spec) | refs_under(item.get("parameters"))
        security = spec.get("security", document.get("security"))
        for requirement in security if isinstance(security, list) else ():
            if isinstance(requirement, Mapping):
                for name in requirement:
                    if name in schemes:
                        found.add(f"#/components/securitySchemes/{escape(str(name))}")
        closure: set[str] = set()
        pending = list(found)
        while pending:
            component = pending.pop()
            if component not in closure:
                closure.add(component)
                pending.extend(direct.get(component, ()))
        uses[(path, method)] = closure
    return uses


# -- the problems -------------------------------------------------------------------------


def _walk(node: Any, budget: Budget) -> Iterator[tuple[Location, Mapping[str, Any]]]:
    """Every object in the document with its location, without recursion."""
    stack: list[tuple[Location, Any]] = [((), node)]
    seen = 0
    while stack:
        location, current = stack.pop()
        seen += 1
        if seen % CHECK_EVERY == 0:
            budget.check("checking the document's references")
        if isinstance(current, Mapping):
            yield location, current
            stack.extend(((*location, str(key)), value) for key, value in current.items())
        elif isinstance(current, list):
            stack.extend(((*location, str(i)), value) for i, value in enumerate(current))


def _reference_problems(
    document: Mapping[str, Any], budget: Budget
) -> Iterator[tuple[Location, str]]:

    doc = Document(document)
    for location, node in _walk(document, budget):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        if not ref.startswith("#/"):
            yield location, f"$ref {ref!r}: leadctl reads self-contained contracts (local $refs)"
            continue
        try:
            doc.pointer(ref)
        except (KeyError, IndexError, ValueError, TypeError):
            yield location, f"$ref {ref!r} does not resolve"


def _duplicate_operations(document: Mapping[str, Any]) -> Iterator[tuple[Location, str]]:
    """Two operations on one METHOD and path template: a command could not tell them apart,
    so the later one is left out."""
    seen: dict[tuple[str, str], str] = {}
    for path, method, _spec in operations(document):
        key = template_key(method, path)
        if key in seen:
            yield (
                ("paths", path, method),
                f"{method.upper()} {seen[key]} is the same operation (the same METHOD and "
                "path template)",
            )
        else:
            seen[key] = path


def _path_template_problems(document: Mapping[str, Any]) -> Iterator[tuple[Location, str]]:
    """Path parameters and the template's {names} must be the same set: a command takes
    its arguments in template order, and could not fill a segment nobody declared."""
    import re

    doc = Document(document)
    for path, method, spec in operations(document):
        declared = set()
        for holder in (document["paths"][path].get("parameters"), spec.get("parameters")):
            for param in holder if isinstance(holder, list) else ():
                if isinstance(param, Mapping) and "$ref" in param:
                    param = doc.resolved(param)
                if isinstance(param, Mapping) and param.get("in") == "path":
                    declared.add(str(param.get("name")))
        in_template = set(re.findall(r"\{([^}/]+)\}", path))
        for name in sorted(declared - in_template):
            yield (
                ("paths", path, method),
                f"path parameter {name!r} is not in the path template {path}",
            )
        for name in sorted(in_template - declared):
            yield (
                ("paths", path, method),
                f"the path template {path} has {{{name}}}, which no path parameter declares",
            )


def _extension_problems(document: Mapping[str, Any]) -> Iterator[tuple[Location, str]]:
    operation_ids = {
        str(spec["operationId"]) for _, _, spec in operations(document) if spec.get("operationId")
    }
    for path, method, spec in operations(document):
        for message in _operation_extension_problems(spec, operation_ids):
            yield ("paths", path, method), message


def _operation_extension_problems(spec: Mapping[str, Any], ids: set[str]) -> Iterator[str]:
    safe = spec.get("x-leadctl-retry-safe")
    if safe is not None and not isinstance(safe, bool):
        yield "x-leadctl-retry-safe must be true or false"
    kinds = spec.get("x-leadctl-credential-kinds")
    if kinds is not None and (
        not isinstance(kinds, list) or not kinds or not set(kinds) <= CREDENTIAL_KINDS
    ):
        yield "x-leadctl-credential-kinds must list some of org, user, source"
    pending = spec.get("x-leadctl-pending")
    if pending is None:
        return
    if not isinstance(pending, Mapping) or not isinstance(pending.get("field"), str):
        yield "x-leadctl-pending needs a field (the status property)"
        return
    for key in ("pending", "failed"):
        values = pending.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            yield f"x-leadctl-pending.{key} must be a list of status values"
    for key in ("poll", "download"):
        named = pending.get(key)
        if named is not None and named not in ids:
            yield f"x-leadctl-pending.{key} {named!r} is not an operationId of the contract"


def _spec_problems(
    document: Mapping[str, Any], version: str, budget: Budget
) -> Iterator[tuple[Location, str]]:
    """The OpenAPI rules of the document's version: the meta-schema over the whole document,
    every Schema Object in it included (each error has its place), then the rules no
    meta-schema states, each schema checked where it is written."""
    for location, message in meta_problems(document, version):
        yield location, _message(message)
    budget.check("checking the document against OpenAPI " + version)
    yield from semantic_problems(document, version, budget)


def _message(text: str) -> str:
    """The first line, without a dump of the object it is about (its place says which)."""
    line = text.splitlines()[0] if text else ""
    if line[:1] in ("{", "[") and " is " in line:
        return "the value" + line[line.index(" is ") :]
    return line

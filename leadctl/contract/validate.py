"""Is a document an OpenAPI 3.0, 3.1 or 3.2 contract leadctl can build commands from?

Two layers: the OpenAPI rules of the document's own version (the published meta-schema
and the semantic checks such as unique operationIds and declared path parameters), by
``openapi-spec-validator``, loaded only here; then what leadctl relies on: local ``$ref``s
only, one operation per METHOD and path template (``/a/{id}`` and ``/a/{key}`` are one),
and well-formed ``x-leadctl-*`` extensions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from leadctl.contract import HTTP_METHODS
from leadctl.errors import UsageError

SHOWN_PROBLEMS = 10
MESSAGE_LIMIT = 240
CREDENTIAL_KINDS = frozenset({"org", "user", "source"})


class ContractInvalid(UsageError):
    """The document is not a contract leadctl accepts; nothing was stored."""

    def __init__(self, what: str, problems: list[str], version: str = "3.1") -> None:
        super().__init__(f"{what} is not a valid OpenAPI {version} contract")
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


def check_contract(document: Any, *, what: str) -> None:
    """Raise ContractInvalid listing every problem found; return when there is none.
    Swagger 2.0 and documents that are not OpenAPI 3 are a one-line UsageError."""
    from leadctl.contract.formats import openapi_version

    if not isinstance(document, Mapping):
        raise ContractInvalid(what, ["the document is not a JSON object"])
    version = openapi_version(document)
    problems = list(problems_of(document))
    if problems:
        raise ContractInvalid(what, problems, version)


def problems_of(document: Any) -> Iterator[str]:
    if not isinstance(document, Mapping):
        yield "the document is not a JSON object"
        return
    version = document.get("openapi")
    if not (isinstance(version, str) and version[:4] in ("3.0.", "3.1.", "3.2.")):
        yield f"openapi is {version!r}: leadctl reads OpenAPI 3.0, 3.1 and 3.2 documents"
        return
    # References first: the OpenAPI validator would try to fetch an external one, and
    # stops at the first that resolves nowhere.
    found = list(_reference_problems(document))
    if not found:
        found = list(_spec_problems(document, version[:3]))
    if not found:
        found = list(_duplicate_operations(document))
    if not found:
        found = list(_extension_problems_of(document))
    yield from found


def _duplicate_operations(document: Mapping[str, Any]) -> Iterator[str]:
    """Two operations on one METHOD and path template: a command could not tell them apart."""
    from leadctl.operations import template_key

    seen: dict[tuple[str, str], str] = {}
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, Mapping):
            continue
        for method in HTTP_METHODS:
            if isinstance(item.get(method), Mapping):
                key = template_key(method, str(path))
                if key in seen:
                    yield (
                        f"{method.upper()} {path} and {method.upper()} {seen[key]} are one "
                        "operation (the same METHOD and path template)"
                    )
                else:
                    seen[key] = str(path)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


def _spec_problems(document: Mapping[str, Any], version: str) -> Iterator[str]:
    import openapi_spec_validator as validators

    validator = {
        "3.0": validators.OpenAPIV30SpecValidator,
        "3.1": validators.OpenAPIV31SpecValidator,
        "3.2": validators.OpenAPIV32SpecValidator,
    }[version]
    try:
        for error in validator(document).iter_errors():
            where = "/".join(str(part) for part in getattr(error, "path", ()) or ())
            message = _clip(str(getattr(error, "message", error)))
            yield f"{where}: {message}" if where else message
    except Exception as error:
        # A reference to nowhere stops the validator with an exception, not an error; its
        # text can hold the whole document, so only its reference is shown.
        ref = getattr(error, "ref", None)
        if isinstance(ref, str):
            yield f"$ref {ref!r} does not resolve"
        else:
            yield _clip(
                f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
            )


def _walk(node: Any, where: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield where, node
        for key, value in node.items():
            yield from _walk(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{where}/{index}")


def _reference_problems(document: Mapping[str, Any]) -> Iterator[str]:
    from leadctl.contract.index import Document

    doc = Document(document)
    for where, node in _walk(document, "#"):
        ref = node.get("$ref")
        if not isinstance(ref, str):
            continue
        if not ref.startswith("#/"):
            yield f"{where}: $ref {ref!r}: leadctl reads self-contained contracts (local $refs)"
            continue
        try:
            doc.pointer(ref)
        except (KeyError, IndexError, ValueError, TypeError):
            yield f"{where}: $ref {ref!r} does not resolve"


def _extension_problems_of(document: Mapping[str, Any]) -> Iterator[str]:
    operation_ids = set()
    operations = []
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, Mapping):
            continue
        for method in HTTP_METHODS:
            spec = item.get(method)
            if isinstance(spec, Mapping):
                operations.append((f"{method.upper()} {path}", spec))
                if isinstance(spec.get("operationId"), str):
                    operation_ids.add(spec["operationId"])
    for name, spec in operations:
        yield from _extension_problems(name, spec, operation_ids)


def _extension_problems(name: str, spec: Mapping[str, Any], ids: set[str]) -> Iterator[str]:
    safe = spec.get("x-leadctl-retry-safe")
    if safe is not None and not isinstance(safe, bool):
        yield f"{name}: x-leadctl-retry-safe must be true or false"
    kinds = spec.get("x-leadctl-credential-kinds")
    if kinds is not None and (
        not isinstance(kinds, list) or not kinds or not set(kinds) <= CREDENTIAL_KINDS
    ):
        yield f"{name}: x-leadctl-credential-kinds must list some of org, user, source"
    pending = spec.get("x-leadctl-pending")
    if pending is None:
        return
    if not isinstance(pending, Mapping) or not isinstance(pending.get("field"), str):
        yield f"{name}: x-leadctl-pending needs a field (the status property)"
        return
    for key in ("pending", "failed"):
        values = pending.get(key, [])
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            yield f"{name}: x-leadctl-pending.{key} must be a list of status values"
    poll = pending.get("poll")
    if poll is not None and poll not in ids:
        yield f"{name}: x-leadctl-pending.poll {poll!r} is not an operationId of the contract"

"""The bundled OpenAPI contract of the Lead Management Service (``openapi.json``).

The JSON file is the single source: the sandbox validates requests with its schemas and
takes each operation's credential kinds from it; leadctl's own operations come from its
compiled index (``leadctl.operations``), where retry safety is decided.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

CONTRACT_FILE = Path(__file__).with_name("openapi.json")
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
# An operation that does not say which credentials it takes: staff ones, never a source key.
DEFAULT_CREDENTIAL_KINDS = ("org", "user")


@lru_cache(maxsize=1)
def load_contract() -> dict[str, Any]:
    """The parsed contract; callers must not mutate it."""
    import json

    with CONTRACT_FILE.open(encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    return document


class ContractOperation:
    """One operation of a contract. A plain class: this package is imported on every
    command's start-up (the index lookup), where a dataclass costs most of a millisecond."""

    __slots__ = ("method", "path", "spec")

    def __init__(self, method: str, path: str, spec: dict[str, Any]) -> None:
        self.method = method  # upper case
        self.path = path
        self.spec = spec

    def __repr__(self) -> str:
        return f"ContractOperation({self.method!r}, {self.path!r})"

    @property
    def operation_id(self) -> str:
        return str(self.spec["operationId"])

    @property
    def credential_kinds(self) -> frozenset[str]:
        return frozenset(self.spec.get("x-leadctl-credential-kinds") or DEFAULT_CREDENTIAL_KINDS)


def iter_operations(document: dict[str, Any] | None = None) -> Iterator[ContractOperation]:
    """Every operation of the contract, in document order."""
    doc = load_contract() if document is None else document
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield ContractOperation(method.upper(), path, item[method])

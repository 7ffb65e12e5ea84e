"""The operations of the contract the sandbox implements (its own copy; see :mod:`published`).

A small reader of OpenAPI path items, kept here so the sandbox never imports leadctl.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
# An operation that does not say which credentials it takes: staff ones, never a source key.
DEFAULT_CREDENTIAL_KINDS = ("org", "user")


class ContractOperation:
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


def iter_operations(document: dict[str, Any]) -> Iterator[ContractOperation]:
    """Every operation of the document, in document order."""
    for path, item in document["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield ContractOperation(method.upper(), path, item[method])

"""The bundled OpenAPI contract of the Lead Management Service (``openapi.json``).

The JSON file is the single source: the sandbox validates requests with its schemas and
takes each operation's credential kinds from it, and tests check the client's operation
table and the sandbox against it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

CONTRACT_FILE = Path(__file__).with_name("openapi.json")
HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")


@lru_cache(maxsize=1)
def load_contract() -> dict[str, Any]:
    """The parsed contract; callers must not mutate it."""
    with CONTRACT_FILE.open(encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    return document


@dataclass(frozen=True)
class ContractOperation:
    method: str  # upper case
    path: str
    spec: dict[str, Any]

    @property
    def operation_id(self) -> str:
        return str(self.spec["operationId"])

    @property
    def retry_safe(self) -> bool:
        return bool(self.spec["x-leadctl-retry-safe"])

    @property
    def credential_kinds(self) -> frozenset[str]:
        return frozenset(self.spec["x-leadctl-credential-kinds"])


def iter_operations(document: dict[str, Any] | None = None) -> Iterator[ContractOperation]:
    """Every operation of the contract, in document order."""
    doc = load_contract() if document is None else document
    for path, item in doc["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield ContractOperation(method.upper(), path, item[method])

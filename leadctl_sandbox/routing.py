"""Which contract operation a request is for: 404 for an unknown path, 405 for a method the
path does not have (with Allow listing exactly the contract's methods)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import unquote

from leadctl_sandbox.contract import ContractOperation
from leadctl_sandbox.problems import ApiProblem


class Router:
    def __init__(self, operations: Iterable[ContractOperation]) -> None:
        # path template segments -> {method: operation}
        routes: dict[tuple[str, ...], dict[str, ContractOperation]] = {}
        for operation in operations:
            segments = tuple(operation.path.strip("/").split("/"))
            routes.setdefault(segments, {})[operation.method] = operation
        # /sources/all before /sources/{id}: a literal segment wins over a parameter.
        self._routes = dict(
            sorted(routes.items(), key=lambda item: [s.startswith("{") for s in item[0]])
        )

    def match(self, method: str, raw_path: str) -> tuple[ContractOperation, dict[str, str]]:
        # Split before decoding, so an encoded "/" stays inside its parameter.
        parts = [unquote(part) for part in raw_path.strip("/").split("/")]
        if raw_path.endswith("/") and raw_path != "/":
            parts.append("")
        allowed: set[str] = set()
        for template, methods in self._routes.items():
            params = _bind(template, parts)
            if params is None:
                continue
            operation = methods.get(method.upper())
            if operation is not None:
                return operation, params
            # A 405 lists the methods of the most specific path that matched.
            allowed = allowed or set(methods)
        if allowed:
            allow = ", ".join(sorted(allowed))
            raise ApiProblem(
                405, f"{method} is not allowed here; use {allow}.", headers={"Allow": allow}
            )
        raise ApiProblem(404, "No such endpoint.")


def _bind(template: tuple[str, ...], parts: list[str]) -> dict[str, str] | None:
    if len(template) != len(parts):
        return None
    params: dict[str, str] = {}
    for expected, actual in zip(template, parts, strict=True):
        if expected.startswith("{") and expected.endswith("}"):
            if not actual:
                return None
            params[expected[1:-1]] = actual
        elif expected != actual:
            return None
    return params

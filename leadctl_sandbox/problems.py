"""Error answers as the reference describes them: application/problem+json with a traceId."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import Any

PROBLEM_MEDIA_TYPE = "application/problem+json"

TITLES = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    429: "Too Many Requests",
    500: "Internal Server Error",
}
_RFC9110_SECTIONS = {
    400: "15.5.1",
    401: "15.5.2",
    403: "15.5.4",
    404: "15.5.5",
    405: "15.5.6",
    429: "",
    500: "15.6.1",
}


class ApiProblem(Exception):
    """Raised by handlers; becomes one problem+json answer."""

    def __init__(
        self,
        status: int,
        detail: str | None = None,
        *,
        errors: Mapping[str, list[str]] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail or TITLES.get(status, ""))
        self.status = status
        self.detail = detail
        self.errors = dict(errors) if errors else None
        self.headers = dict(headers or {})


def validation_problem(errors: Mapping[str, list[str]]) -> ApiProblem:
    return ApiProblem(400, "One or more validation errors occurred.", errors=errors)


def new_trace_id() -> str:
    """A W3C traceparent-shaped id, as ASP.NET-style services report it."""
    return f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-00"


def problem_type(status: int) -> str:
    if status == 429:
        return "https://www.rfc-editor.org/rfc/rfc6585#section-4"
    section = _RFC9110_SECTIONS.get(status)
    if section:
        return f"https://www.rfc-editor.org/rfc/rfc9110#section-{section}"
    return "about:blank"


def problem_body(problem: ApiProblem, *, instance: str, trace_id: str) -> bytes:
    body: dict[str, Any] = {
        "type": problem_type(problem.status),
        "title": TITLES.get(problem.status, "Error"),
        "status": problem.status,
        "detail": problem.detail,
        "instance": instance,
    }
    if problem.errors is not None:
        body["errors"] = problem.errors
    body["traceId"] = trace_id
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

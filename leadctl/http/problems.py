"""An error answer as an :class:`~leadctl.errors.ApiError`: problem+json, other JSON, HTML
or nothing, secrets masked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from leadctl.config.redact import redact_problem
from leadctl.errors import ApiError
from leadctl.util.jsontext import loads_service

if TYPE_CHECKING:
    import httpx


def problem_from_response(
    response: httpx.Response, *, hint: str | None = None, secrets: Iterable[str] = ()
) -> ApiError:
    """An ApiError from any error response: problem+json, other JSON, HTML or nothing.
    Secret members, and ``secrets`` in any form a service may echo them, are masked."""
    error = _problem(response, hint=hint, secrets=tuple(secrets))
    error.challenge = response.headers.get("WWW-Authenticate")
    return error


def _problem(response: httpx.Response, *, hint: str | None, secrets: tuple[str, ...]) -> ApiError:
    status = response.status_code
    content_type = response.headers.get("Content-Type", "")
    body: Any = None
    if "json" in content_type:
        try:
            body = loads_service(response.content)
        except ValueError:
            body = None
    if isinstance(body, dict):
        body = redact_problem(body, secrets)
        errors = body.get("errors")
        field_errors: dict[str, list[str]] = {}
        if isinstance(errors, dict):
            for field, messages in errors.items():
                if isinstance(messages, list):
                    field_errors[str(field)] = [str(m) for m in messages]
                else:
                    field_errors[str(field)] = [str(messages)]
        title = body.get("title")
        detail = body.get("detail")
        trace_id = body.get("traceId")
        return ApiError(
            status,
            title=str(title) if title is not None else response.reason_phrase or None,
            detail=str(detail) if detail is not None else None,
            field_errors=field_errors,
            trace_id=str(trace_id) if trace_id is not None else None,
            problem=body,
            hint=hint,
        )
    kind = content_type.split(";")[0].strip() or "no content type"
    detail = (
        f"the response was not a problem document ({kind}, {len(response.content)} bytes)"
        if response.content
        else "the response had an empty body"
    )
    return ApiError(
        status,
        title=response.reason_phrase or None,
        detail=detail,
        trace_id=response.headers.get("X-Trace-Id") or response.headers.get("traceparent"),
        hint=hint,
    )

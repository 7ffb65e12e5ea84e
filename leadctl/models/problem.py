"""Problem details (``application/problem+json``), the body of an error answer.

Clients act on the status code; ``detail`` and ``errors`` are for the person reading the
message, never matched by wording (the reference says so).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator

from leadctl.models.base import Integer, Resource, Text


def _field_errors(value: Any) -> dict[str, list[str]] | None:
    """``errors``: request field -> messages; a message that is not text is left out,
    and a field whose messages are not an array reads as one message."""
    if not isinstance(value, dict):
        return None
    found: dict[str, list[str]] = {}
    for field, messages in value.items():
        listed = messages if isinstance(messages, list) else [messages]
        found[str(field)] = [m for m in listed if isinstance(m, str)]
    return found


class ProblemDetails(Resource):
    type: Text = None
    title: Text = None
    status: Integer = None
    detail: Text = None
    instance: Text = None
    errors: Annotated[dict[str, list[str]] | None, BeforeValidator(_field_errors)] = None
    trace_id: Text = None

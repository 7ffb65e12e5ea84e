"""Checking that a 2xx answer has the shape a command relies on.

A proxy, a captive portal or a broken deployment can answer 200 with something that is
not what the operation returns. Printing it, or reporting success, would tell a script
that watches the exit code something false; such an answer is exit 8 (BadResponse), with
what was expected in the message, and ``--debug`` shows the body itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from leadctl.errors import BadResponse
from leadctl.util.jsonkind import json_kind as kind_of_json

HINT = "run with --debug to see the response"


def json_kind(value: Any) -> str:
    """How a decoded answer is named in messages; an empty body decodes to None."""
    return "null (or no body)" if value is None else kind_of_json(value)


def require_object(data: Any, *, what: str, required: Sequence[str] = ()) -> dict[str, Any]:
    """``data`` if it is a JSON object holding every ``required`` field (not null)."""
    if not isinstance(data, dict):
        raise BadResponse(
            f"the service answered with {json_kind(data)} where {what} was expected", hint=HINT
        )
    missing = [name for name in required if data.get(name) is None]
    if missing:
        raise BadResponse(
            f"the service's answer is not {what}: it has no {', '.join(missing)}", hint=HINT
        )
    return data


def require_objects(items: Any, *, what: str) -> list[dict[str, Any]]:
    """``items`` if it is a JSON array of objects."""
    if not isinstance(items, list):
        raise BadResponse(
            f"the service answered with {json_kind(items)} where {what} (an array) was expected",
            hint=HINT,
        )
    strays = [item for item in items if not isinstance(item, dict)]
    if strays:
        raise BadResponse(
            f"the service's {what} hold {json_kind(strays[0])} where each should be an object",
            hint=HINT,
        )
    return items

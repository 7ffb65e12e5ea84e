"""Checking that a 2xx answer has the shape a command relies on.

A proxy, a captive portal or a broken deployment can answer 200 with something that is
not what the operation returns. Printing it, or reporting success, would tell a script
that watches the exit code something false; such an answer is exit 8 (BadResponse), with
what was expected in the message, and ``--debug`` shows the body itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

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


# -- the collection page ----------------------------------------------------------------
#
# The answer of every RequestDataOptions read: {items, pageSize, totalCount,
# continuationToken}. Its shape is written here once, without pydantic, because the
# pager checks every page on the -o json/ndjson paths too (which must not load pydantic).

PAGE_ITEMS = "items"
PAGE_SIZE = "pageSize"
PAGE_TOTAL = "totalCount"
PAGE_TOKEN = "continuationToken"


class Page(NamedTuple):
    """A checked collection page."""

    items: list[dict[str, Any]]
    continuation_token: str | None
    total_count: int | None
    page_size: int | None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_page(data: Any, *, source: str) -> Page:
    """``data`` as a collection page, or BadResponse naming the field that is wrong.

    ``items`` and ``continuationToken`` decide what is printed and whether paging goes
    on: a wrong one is exit 8. ``items: null`` is an empty page (the reference makes it
    nullable), and a falsy token (``""``) ends paging like a missing one. ``totalCount``
    and ``pageSize`` only inform (``--count``, ``--all``'s next page size): a value that
    is not an integer is ignored, as if not sent.
    """
    answered = f"{source} answered with"
    if not isinstance(data, dict):
        raise BadResponse(
            f"{answered} {json_kind(data)} where a collection page (an object with items) "
            "was expected",
            hint=HINT,
        )
    if PAGE_ITEMS not in data:
        # Required by the contract: without it this is not a page of the collection.
        raise BadResponse(
            f"{answered} an object that has no {PAGE_ITEMS}: not a collection page", hint=HINT
        )
    items = data[PAGE_ITEMS]
    if items is None:
        items = []
    if not isinstance(items, list):
        raise BadResponse(
            f"{answered} a collection page whose {PAGE_ITEMS} is {json_kind(items)}, not an array",
            hint=HINT,
        )
    stray = next((item for item in items if not isinstance(item, dict)), _NO_STRAY)
    if stray is not _NO_STRAY:
        raise BadResponse(
            f"{answered} a collection page whose {PAGE_ITEMS} hold {json_kind(stray)} "
            "where each should be an object",
            hint=HINT,
        )
    token = data.get(PAGE_TOKEN) or None
    if token is not None and not isinstance(token, str):
        raise BadResponse(
            f"{answered} a collection page whose {PAGE_TOKEN} is {json_kind(token)}, not a string",
            hint=HINT,
        )
    return Page(items, token, _count(data.get(PAGE_TOTAL)), _count(data.get(PAGE_SIZE)))


_NO_STRAY = object()

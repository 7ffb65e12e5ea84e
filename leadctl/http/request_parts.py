"""The parts of a request an operation decides: its query, its JSON body's media type and
its idempotency key."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.errors import UsageError
from leadctl.util.jsontext import NotJson, dumps_body

if TYPE_CHECKING:
    from leadctl.contract.operations import Operation


def encoded_body(
    op: Operation, json_body: Any, content: bytes | None, headers: Iterable[tuple[str, str]]
) -> tuple[Any, bytes | None, list[tuple[str, str]]]:
    """The JSON body (with its idempotency key), the bytes sent and the headers."""
    body = content
    extra_headers = list(headers)
    json_body, extra_headers = with_idempotency_key(op, json_body, extra_headers)
    if json_body is not None:
        try:
            body = dumps_body(json_body)
        except NotJson as error:
            raise UsageError(f"the request body cannot be sent as JSON: {error}") from None
        extra_headers.append(("Content-Type", json_media_type(op)))
    return json_body, body, extra_headers


def query_params(params: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not params:
        return None
    return {k: v for k, v in params.items() if v is not None}


def json_media_type(op: Operation) -> str:
    """The JSON media type the contract names for the body (``application/merge-patch+json``),
    else ``application/json`` (also for a range such as ``application/*+json``)."""
    media = (op.body_media or "").split(";")[0].strip().lower()
    if media.startswith("application/") and media.endswith("+json") and "*" not in media:
        return media
    return "application/json"


def with_idempotency_key(
    op: Operation, json_body: Any, headers: list[tuple[str, str]]
) -> tuple[Any, list[tuple[str, str]]]:
    """The body and headers with a fresh idempotency key where the operation takes one and
    the caller gave none. Made once per call, before the request is built, so every retry
    of this call repeats the same key (cli.md "Retries")."""
    idem = op.idempotency
    if idem is None:
        return json_body, headers
    if idem.where == "header":
        if any(name.lower() == idem.name.lower() for name, _value in headers):
            return json_body, headers
        return json_body, [*headers, (idem.name, str(uuid.uuid4()))]
    if isinstance(json_body, dict) and json_body.get(idem.name) in (None, ""):
        return {**json_body, idem.name: str(uuid.uuid4())}, headers
    return json_body, headers

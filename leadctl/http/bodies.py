"""Answer bodies: read whole within a limit, decoded as JSON, clipped for --debug."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from leadctl.errors import BadResponse
from leadctl.util.jsontext import NotJson, loads_service

if TYPE_CHECKING:
    import httpx
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

DEBUG_BODY_LIMIT = 2048
# No page of this API is anywhere near this; a body this big is a proxy or a runaway server.
MAX_BODY_BYTES = 64 * 1024 * 1024


class TooLarge(Exception):
    """A body over MAX_BODY_BYTES: answered, but unusable (not a transport error)."""

    def __init__(self, error: BadResponse) -> None:
        super().__init__(error.message)
        self.error = error


def receive(http: httpx.Client, request: httpx.Request) -> httpx.Response:
    """Send and read the whole body, refusing one larger than MAX_BODY_BYTES.

    A truncated body raises httpx's transport errors here, inside the retry loop.
    """
    streamed = http.send(request, stream=True)
    try:
        declared = streamed.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            raise TooLarge(too_large(int(declared)))
        body = bytearray()
        for chunk in streamed.iter_bytes():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise TooLarge(too_large(None))
    finally:
        streamed.close()
    # The body is already decoded: the copy must not claim an encoding or a length. The
    # headers are copied as bytes: a value holding a Latin-1 byte (é) does not survive a
    # round trip through str, which httpx would encode as ASCII.
    headers = [
        (name, value)
        for name, value in streamed.headers.raw
        if name.lower() not in (b"content-encoding", b"content-length", b"transfer-encoding")
    ]
    return httpx.Response(
        streamed.status_code,
        headers=headers,
        content=bytes(body),
        request=request,
        extensions=streamed.extensions,
    )


def too_large(size: int | None) -> BadResponse:
    shown = f"{size} bytes" if size is not None else f"more than {MAX_BODY_BYTES} bytes"
    return BadResponse(
        f"the response body is too large ({shown}); leadctl reads at most "
        f"{MAX_BODY_BYTES // (1024 * 1024)} MiB per response",
        hint="use a smaller --page-size",
    )


def decode_json(response: httpx.Response, *, trace: Callable[[str], None] | None) -> Any:
    content = response.content
    if not content:
        return None
    try:
        return loads_service(content)
    except (ValueError, UnicodeDecodeError) as error:
        if trace is not None:
            trace(
                "< raw body start: " + clip(content[:DEBUG_BODY_LIMIT].decode("utf-8", "replace"))
            )
        content_type = response.headers.get("Content-Type", "no content type")
        # Why, when it is JSON's shape but not JSON's rules (NaN, nesting too deep).
        reason = f": {error}" if isinstance(error, NotJson) else ""
        raise BadResponse(
            f"the service answered {response.status_code} with a body that is not JSON "
            f"({content_type}, {len(content)} bytes){reason}",
            hint="run with --debug to see the start of the body",
        ) from None


def clip(text: str) -> str:
    if len(text) <= DEBUG_BODY_LIMIT:
        return text
    return text[:DEBUG_BODY_LIMIT] + f"… ({len(text) - DEBUG_BODY_LIMIT} more characters)"

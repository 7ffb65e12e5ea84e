"""A raw HTTP request as a capture tool saved it: headers and the exact body bytes.

Captures come with CRLF line ends (as sent) or LF (copied through an editor or a terminal),
with a Content-Length (the body is exactly that many bytes: an editor's trailing newline is
not part of it), chunked, or with neither (the body is the rest of the file). The stdlib's
HTTP header parser reads the header block either way.
"""

from __future__ import annotations

import http.client
import io
import re

from leadctl.errors import UsageError

_REQUEST_LINE = re.compile(rb"[A-Z]+ \S+ HTTP/\d(\.\d)?\r?\n")
_MAX_HEADERS = 200


class CapturedRequest:
    def __init__(self, headers: list[tuple[str, str]], body: bytes) -> None:
        self.headers = headers
        self.body = body


def parse_captured(raw: bytes, *, what: str) -> CapturedRequest:
    """The headers and body of ``raw``; UsageError (exit 2) naming what is not a request."""
    line_end = raw.find(b"\n")
    if line_end < 0 or not _REQUEST_LINE.fullmatch(raw[: line_end + 1]):
        raise UsageError(
            f"{what} does not start with an HTTP request line (POST /path HTTP/1.1)",
            hint="save the whole request as received: request line, headers, a blank line, body",
        )
    stream = io.BytesIO(raw[line_end + 1 :])
    try:
        message = http.client.parse_headers(stream)
    except (http.client.HTTPException, ValueError) as error:
        raise UsageError(f"{what}: unreadable headers ({type(error).__name__})") from None
    headers = [(name, str(value)) for name, value in message.items()]
    if len(headers) > _MAX_HEADERS:
        raise UsageError(f"{what} has more than {_MAX_HEADERS} headers")
    rest = stream.read()
    return CapturedRequest(headers, _body(headers, rest, what=what))


def _body(headers: list[tuple[str, str]], rest: bytes, *, what: str) -> bytes:
    names = {name.lower(): value.strip() for name, value in headers}
    if "chunked" in names.get("transfer-encoding", "").lower():
        return _dechunked(rest, what=what)
    declared = names.get("content-length")
    if declared is None:
        return rest
    if not declared.isdigit():
        raise UsageError(f"{what}: Content-Length is not a number")
    length = int(declared)
    if len(rest) < length:
        raise UsageError(
            f"{what} is cut short: Content-Length says {length} bytes, the body has {len(rest)}"
        )
    return rest[:length]


def _dechunked(rest: bytes, *, what: str) -> bytes:
    body = bytearray()
    stream = io.BytesIO(rest)
    while True:
        size_line = stream.readline()
        try:
            size = int(size_line.split(b";", 1)[0].strip(), 16)
        except ValueError:
            raise UsageError(f"{what}: a chunk size is not hexadecimal") from None
        if size == 0:
            return bytes(body)
        chunk = stream.read(size)
        if len(chunk) < size:
            raise UsageError(f"{what} is cut short inside a chunk")
        body += chunk
        stream.readline()  # the CRLF (or LF) after the chunk

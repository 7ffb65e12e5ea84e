"""Passing a verified delivery on to the operator's app, body and headers unchanged."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import httpx
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx


# Connection-level headers (RFC 9110 7.6.1) belong to one hop; Host and Content-Length are
# the target's own. Every other header the sender set goes on as it came.
_HOP_BY_HOP = frozenset(
    {
        "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection",
        "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
    }
)  # fmt: skip
# What of the target's answer goes back to the sender: enough to read an error.
MAX_ANSWER_BYTES = 64 * 1024


@dataclass(frozen=True)
class Forwarded:
    # The target's status; None when no answer came (``failure`` says why).
    status: int | None
    body: bytes = b""
    content_type: str | None = None
    failure: str | None = None
    # An answer to the sender that says what failed: 502 no connection, 504 no answer in time.
    gateway_status: int | None = None


class Forwarder:
    def __init__(self, url: str, *, client: httpx.Client) -> None:
        self.url = url
        self._client = client

    def forward(self, headers: Iterable[tuple[str, str]], body: bytes) -> Forwarded:
        kept = [(name, value) for name, value in headers if name.lower() not in _HOP_BY_HOP]
        # A Request built here, not by the client, so no default header (Accept,
        # Accept-Encoding, User-Agent) is added to what the sender sent.
        request = httpx.Request("POST", self.url, headers=kept, content=body)
        try:
            response = self._client.send(request, stream=True)
        except httpx.TimeoutException:
            return Forwarded(None, failure="no answer in time", gateway_status=504)
        except httpx.TransportError as error:
            return Forwarded(None, failure=_unreachable(error), gateway_status=502)
        try:
            answer = _read_capped(response)
        except httpx.TransportError:
            answer = b""
        finally:
            response.close()
        return Forwarded(
            response.status_code, answer, content_type=response.headers.get("Content-Type")
        )

    def close(self) -> None:
        self._client.close()


def _read_capped(response: httpx.Response) -> bytes:
    answer = bytearray()
    for chunk in response.iter_bytes():
        answer += chunk[: MAX_ANSWER_BYTES - len(answer)]
        if len(answer) >= MAX_ANSWER_BYTES:
            break
    return bytes(answer)


def _unreachable(error: httpx.TransportError) -> str:
    if isinstance(error, httpx.ConnectError):
        return "target unreachable (connection refused or no route)"
    return f"target failed ({type(error).__name__})"

"""--debug: each request and answer as lines on stderr, credentials and secrets masked."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from leadctl.config.redact import redact_body, redact_headers, redact_text
from leadctl.http.bodies import clip
from leadctl.http.secret_keys import SecretKeys

if TYPE_CHECKING:
    import httpx

    from leadctl.contract.operations import Operation


class Tracer:
    def __init__(
        self,
        trace: Callable[[str], None] | None,
        *,
        source_key_header: str | None,
        secret_keys: SecretKeys,
    ) -> None:
        self.trace = trace  # None: no --debug
        # A header the profile puts a source key in, masked like Authorization.
        self._source_key_header = source_key_header
        self._secret_keys = secret_keys

    def line(self, line: str) -> None:
        if self.trace is not None:
            self.trace(line)

    def request(
        self,
        request: httpx.Request,
        attempt: int,
        secrets: tuple[str, ...],
        op: Operation | None,
    ) -> None:
        if self.trace is None:
            return
        suffix = f" (attempt {attempt})" if attempt > 1 else ""
        self.trace(f"> {request.method} {redact_text(str(request.url), secrets)}{suffix}")
        sensitive = [self._source_key_header] if self._source_key_header else []
        for name, value in redact_headers(request.headers.items(), sensitive):
            self.trace(f"> {name}: {redact_text(value, secrets)}")
        if request.content:
            content_type = request.headers.get("Content-Type")
            secret_key = self._secret_keys.of(op, "request")
            shown = redact_body(request.content, content_type, secrets, secret_key=secret_key)
            self.trace("> " + clip(shown))

    def response(
        self,
        response: httpx.Response,
        elapsed_ms: float,
        secrets: tuple[str, ...],
        op: Operation | None,
    ) -> None:
        if self.trace is None:
            return
        self.trace(f"< {response.status_code} {response.reason_phrase} ({elapsed_ms:.0f} ms)")
        for name, value in redact_headers(response.headers.items()):
            self.trace(f"< {name}: {redact_text(value, secrets)}")
        content = response.read()
        if content:
            content_type = response.headers.get("Content-Type")
            secret_key = self._secret_keys.of(op, "response")
            shown = redact_body(content, content_type, secrets, secret_key=secret_key)
            self.trace("< " + clip(shown))

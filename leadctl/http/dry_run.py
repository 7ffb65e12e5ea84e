"""``--dry-run``: the request as a curl command, the credential as $LEADCTL_TOKEN where the
contract puts it and the body's secrets masked."""

from __future__ import annotations

from collections.abc import Callable

from leadctl.config.credential_use import Place
from leadctl.config.credentials import Credential
from leadctl.config.redact import redact_body, redact_headers
from leadctl.http.curl import curl_command


def dry_run_curl(
    method: str,
    url: str,
    *,
    body: bytes | None,
    headers: list[tuple[str, str]],
    credential: Credential | None,
    places: tuple[Place, ...],
    secret_key: Callable[[], Callable[[str], bool]],  # which body member is a secret
) -> str:
    content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
    shown = None
    if body is not None:
        shown = redact_body(body, content_type, secret_key=secret_key(), in_text=False)
    return curl_command(
        method,
        url,
        headers=redact_headers(headers),
        body=None if shown is None else shown.encode("utf-8"),
        auth=places,
        basic_pair=credential is None or ":" in credential.value,
    )

"""``--dry-run``: the request as a copy-pasteable curl command, credential as $LEADCTL_TOKEN."""

from __future__ import annotations

import shlex
from collections.abc import Iterable


def curl_command(
    method: str,
    url: str,
    *,
    headers: Iterable[tuple[str, str]],
    body: bytes | None,
    auth_header: str | None,
) -> str:
    parts = ["curl", "--fail-with-body", "-sS", "-X", method, shlex.quote(url)]
    if auth_header is not None:
        # Double quotes so the shell expands the variable when the command is pasted.
        prefix = "Bearer " if auth_header.lower() == "authorization" else ""
        parts += ["-H", f'"{auth_header}: {prefix}$LEADCTL_TOKEN"']
    for name, value in headers:
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if body is not None:
        parts += ["--data-binary", shlex.quote(body.decode("utf-8", errors="replace"))]
    return " ".join(parts)

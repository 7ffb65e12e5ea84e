"""``--dry-run``: the request as a copy-pasteable curl command, credential as $LEADCTL_TOKEN
where the operation's security scheme puts it (a header, Basic auth, a query parameter or a
cookie)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from leadctl.config.credential_use import Place, header_value

TOKEN = "$LEADCTL_TOKEN"


def _double_quoted(text: str) -> str:
    """``text`` inside double quotes, so only the $LEADCTL_TOKEN added after it expands."""
    for special in ("\\", '"', "$", "`"):
        text = text.replace(special, "\\" + special)
    return text


def curl_command(
    method: str,
    url: str,
    *,
    headers: Iterable[tuple[str, str]],
    body: bytes | None,
    auth: Sequence[Place] = (),
    basic_pair: bool = True,
) -> str:
    """``basic_pair``: the stored value already holds ``user:password`` (else curl gets
    ``KEY:``, an API key as the user name with an empty password)."""
    query = [place for place in auth if place.where == "query"]
    if query:
        joiner = "&" if urlsplit(url).query else "?"
        added = "&".join(f"{_double_quoted(place.name)}={TOKEN}" for place in query)
        shown_url = f'"{_double_quoted(url)}{joiner}{added}"'
    else:
        shown_url = shlex.quote(url)
    parts = ["curl", "--fail-with-body", "-sS", "-X", method, shown_url]
    # Double quotes so the shell expands the variable when the command is pasted.
    for place in auth:
        name = _double_quoted(place.name)
        if place.where == "cookie":
            parts += ["-b", f'"{name}={TOKEN}"']
        elif place.where == "header" and place.scheme == "basic":
            parts += ["-u", f'"{TOKEN}"' if basic_pair else f'"{TOKEN}:"']
        elif place.where == "header":
            shown = _double_quoted(header_value(place, "\0")).replace("\0", TOKEN)
            parts += ["-H", f'"{name}: {shown}"']
    for name, value in headers:
        parts += ["-H", shlex.quote(f"{name}: {value}")]
    if body is not None:
        parts += ["--data-binary", shlex.quote(body.decode("utf-8", errors="replace"))]
    return " ".join(parts)

"""A generated verb's form body: ``multipart/form-data`` (file parts from
``--file NAME=@PATH``, other parts from ``--field``) or ``application/x-www-form-urlencoded``.

Every file is read before anything is sent: a missing or unreadable one is exit 2 and no
request.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from leadctl.errors import UsageError

FORM_MEDIA = "application/x-www-form-urlencoded"


def _pairs(fields: Sequence[str], flag: str) -> list[tuple[str, str]]:
    pairs = []
    for raw in fields:
        name, sep, value = raw.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{flag} {raw!r}: expected NAME=VALUE")
        pairs.append((name.strip(), value))
    return pairs


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        import json

        return json.dumps(value, ensure_ascii=False)
    return str(value)


def read_files(files: Sequence[str]) -> list[tuple[str, tuple[str, bytes, str]]]:
    """``NAME=@PATH`` (or ``NAME=PATH``) as multipart file parts; exit 2 when a file
    cannot be read."""
    parts = []
    for name, value in _pairs(files, "--file"):
        path = Path(value[1:] if value.startswith("@") else value).expanduser()
        try:
            content = path.read_bytes()
        except OSError as error:
            raise UsageError(
                f"--file {name}: cannot read {str(path)!r}: {error.strerror or error}; "
                "nothing was sent"
            ) from None
        media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        parts.append((name, (path.name, content, media)))
    return parts


def form_body(
    meta: Mapping[str, Any],
    *,
    fields: Sequence[str],
    files: Sequence[str],
    data: str | None,
    stdin: TextIO | None,
) -> tuple[bytes | None, str]:
    """The encoded body and its Content-Type; (None, "") when nothing was given and the
    body is optional."""
    values: list[tuple[str, str]] = []
    if data is not None:
        from leadctl.fields import load_data_option

        loaded = load_data_option(data, stdin=stdin)
        if not isinstance(loaded, dict):
            raise UsageError("--data must be a JSON object (its members become form fields)")
        for name, value in loaded.items():
            items = value if isinstance(value, list) else [value]
            values += [(str(name), _text(item)) for item in items]
    values += _pairs(fields, "--field")
    file_parts = read_files(files)
    multipart = meta.get("form") == "multipart"
    if file_parts and not multipart:
        raise UsageError(f"--file: this operation takes a {FORM_MEDIA} body, without files")
    given = {name for name, _ in values} | {name for name, _ in file_parts}
    missing = [
        str(f["name"])
        for f in meta.get("fields", ())
        if f.get("required") and f["name"] not in given
    ]
    if not given:
        if meta.get("required"):
            raise UsageError(
                "nothing to send: this operation needs a form body",
                hint="give " + " ".join(_example(meta, name) for name in missing or ["NAME"]),
            )
        return None, ""
    if missing:
        raise UsageError(
            f"missing form fields: {', '.join(missing)}; nothing was sent",
            hint="give " + " ".join(_example(meta, name) for name in missing),
        )
    if not multipart:
        from urllib.parse import urlencode

        return urlencode(values).encode("ascii"), FORM_MEDIA
    from leadctl._httpx import httpx

    data_parts: dict[str, Any] = {}
    for name, value in values:
        previous = data_parts.get(name)
        if previous is None:
            data_parts[name] = value
        elif isinstance(previous, list):
            previous.append(value)
        else:
            data_parts[name] = [previous, value]
    request = httpx.Request("POST", "http://form.invalid/", data=data_parts, files=file_parts)
    return request.read(), request.headers["Content-Type"]


def _example(meta: Mapping[str, Any], name: str) -> str:
    if name in meta.get("files", ()):
        return f"--file {name}=@PATH"
    return f"--field {name}=VALUE"

"""A generated verb's form body: ``multipart/form-data`` (file parts from
``--file NAME=@PATH`` or ``--field NAME=@PATH`` for a binary field, other parts from
``--field``) or ``application/x-www-form-urlencoded``.

Every file is read before anything is sent: a missing or unreadable one is exit 2 and no
request.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from leadctl.errors import UsageError
from leadctl.inputs.fields import load_data_option, read_source
from leadctl.inputs.phone import to_e164

if TYPE_CHECKING:
    import httpx

    from leadctl.contract.entries import Body
else:
    # A stand-in that loads httpx the first time it is used: importing stays light.
    from leadctl.http._httpx import httpx

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


def read_file_part(name: str, value: str, *, flag: str) -> tuple[str, tuple[str, bytes, str]]:
    """``PATH`` (or ``@PATH``) as the multipart file part ``name``; exit 2 when the file
    cannot be read."""
    path = Path(value[1:] if value.startswith("@") else value).expanduser()
    try:
        content = path.read_bytes()
    except OSError as error:
        raise UsageError(
            f"{flag} {name}: cannot read {str(path)!r}: {error.strerror or error}; nothing was sent"
        ) from None
    media = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return name, (path.name, content, media)


def form_body(
    meta: Body,
    *,
    fields: Sequence[str],
    files: Sequence[str],
    data: str | None,
    stdin: TextIO | None,
    phones: Collection[str] = (),
    region: object = None,
) -> tuple[bytes | None, str]:
    """The encoded body and its Content-Type; (None, "") when nothing was given and the
    contract says the body may be left out (``required: false``); an empty urlencoded form
    when nothing was given and no field is required.

    A binary field takes ``--field NAME=@PATH`` as ``--file`` does; another field's
    ``@PATH`` (``@-``: stdin) is that file's text. Phone number fields go in E.164.
    """
    multipart = meta.form == "multipart"
    binary = set(meta.files)
    values: list[tuple[str, str]] = []
    if data is not None:
        loaded = load_data_option(data, stdin=stdin)
        if not isinstance(loaded, dict):
            raise UsageError("--data must be a JSON object (its members become form fields)")
        for name, value in loaded.items():
            items = value if isinstance(value, list) else [value]
            values += [(str(name), _text(item)) for item in items]
    file_parts = []
    for name, value in _pairs(fields, "--field"):
        if value.startswith("@") and name in binary:
            file_parts.append(read_file_part(name, value, flag="--field"))
        elif value.startswith("@"):
            values.append((name, read_source(value[1:], what=f"--field {name}", stdin=stdin)))
        else:
            values.append((name, value))
    file_parts += [
        read_file_part(name, value, flag="--file") for name, value in _pairs(files, "--file")
    ]
    if file_parts and not multipart:
        raise UsageError(f"this operation takes a {FORM_MEDIA} body, without files")
    values = [(name, _phone(name, value, phones, region)) for name, value in values]
    given = {name for name, _ in values} | {name for name, _ in file_parts}
    missing = [f.name for f in meta.fields if f.required and f.name not in given]
    if not given:
        if meta.empty_allowed or not meta.fields:
            return None, ""
        if not missing and not multipart:
            # No field is required: an empty form is a valid request, as the JSON verbs
            # send {} (a contact form whose every field is optional).
            return b"", FORM_MEDIA
        if not missing:
            # A multipart body holds at least one part (RFC 2046): there is no empty one.
            raise UsageError(
                f"nothing to send: a {meta.media} body needs at least one part",
                hint="give " + " ".join(_example(meta, name) for name in _names(meta)[:3]),
            )
    if missing:
        raise UsageError(
            f"missing form fields: {', '.join(missing)}; nothing was sent",
            hint="give " + " ".join(_example(meta, name) for name in missing),
        )
    if not multipart:
        from urllib.parse import urlencode

        return urlencode(values).encode("utf-8"), FORM_MEDIA
    # Text fields as parts without a file name: httpx sends multipart/form-data only when
    # it is given parts, and the operation takes nothing else, even without a file.
    parts: list[tuple[str, Any]] = [
        (name, (None, value.encode("utf-8"), None)) for name, value in values
    ]
    request = httpx.Request("POST", "http://form.invalid/", files=[*parts, *file_parts])
    return request.read(), request.headers["Content-Type"]


def _phone(name: str, value: str, phones: Collection[str], region: object) -> str:
    if name not in phones:
        return value

    return to_e164(value, region=region, what=name)


def _names(meta: Body) -> list[str]:
    return [f.name for f in meta.fields]


def _example(meta: Body, name: str) -> str:
    if name in meta.files:
        return f"--file {name}=@PATH"
    return f"--field {name}=VALUE"

"""A generated verb's JSON body: built from ``--data`` and ``--field``, checked against the
contract's schema before anything is sent (a bad body is exit 2 and no request).

Validation uses jsonschema-rs (JSON Schema 2020-12, the dialect of OpenAPI 3.1): it loads
in a few milliseconds where the pure-Python jsonschema takes about seventy.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from leadctl.config.redact import mask_secrets, secret_values
from leadctl.contract.document import Document
from leadctl.contract.field_paths import FieldPaths
from leadctl.errors import UsageError
from leadctl.inputs.fields import build_fields, load_data_option, merge_over
from leadctl.util.secret_fields import is_secret

if TYPE_CHECKING:
    from leadctl.contract.document import Document
    from leadctl.contract.entries import BodyField

STRING_TYPES = frozenset({"string", "date-time", "date", "email", "uri", "uuid", "password"})


class BodyInvalid(UsageError):
    """The body does not match the contract's schema; nothing was sent."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(
            "the request body does not match the contract's schema; nothing was sent",
            hint="see the fields in --help, or `leadctl contract show`",
        )
        self.errors = errors

    def detail_lines(self) -> list[str]:
        lines = [
            f"  {field}: {message}"
            for field, messages in self.errors.items()
            for message in messages
        ]
        return lines + super().detail_lines()

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["errors"] = self.errors
        return body


def _top_key(raw: str) -> str:
    key = raw.partition("=")[0].strip()
    return key.split("[", 1)[0].split(".", 1)[0]


def _key_shape(raw: str) -> str:
    """A --field key as the dot path it names: ``tags[0]`` and ``tags[]`` are ``tags[]``,
    ``a[b]`` is ``a.b``."""
    key = raw.partition("=")[0].strip()
    key = re.sub(r"\[\d*\]", "[]", key)
    return re.sub(r"\[([^\]]+)\]", r".\1", key)


def _walk(fields_meta: Sequence[BodyField], prefix: str = "") -> Iterator[tuple[str, str]]:
    """Every field the index describes, by dot path (list items as ``name[]``), and its
    type (a list item's for ``name[]``)."""
    for field in fields_meta:
        path = f"{prefix}{field.name}"
        if field.type.startswith("array of "):
            yield f"{path}[]", field.type.removeprefix("array of ")
            yield from _walk(field.fields, f"{path}[].")
        else:
            yield path, field.type
            yield from _walk(field.fields, f"{path}.")


def string_paths(fields_meta: Sequence[BodyField]) -> set[str]:
    """Dot paths of the fields the contract types as strings (their text is kept)."""
    return {path for path, kind in _walk(fields_meta) if kind in STRING_TYPES}


def build_body(
    fields_meta: Sequence[BodyField],
    *,
    fields: Sequence[str],
    data: str | None,
    stdin: TextIO | None,
) -> dict[str, Any] | None:
    """The object ``--data`` and ``--field`` describe, or None when neither was given.

    A field the contract types as a string keeps its text (``--field zip=02134``); the
    others are typed like ``api -F``.
    """
    if not fields and data is None:
        return None

    base: Any = {}
    if data is not None:
        base = load_data_option(data, stdin=stdin)
        if not isinstance(base, dict):
            raise UsageError("--data must be a JSON object")
    strings = string_paths(fields_meta)
    raw = [
        f
        for f in fields
        if (_top_key(f) in strings or _key_shape(f) in strings)
        and not f.partition("=")[2].startswith("@")
    ]
    typed = [f for f in fields if f not in raw]
    built = build_fields(
        raw_fields=raw, typed_fields=typed, stdin=stdin, raw_flag="--field", typed_flag="--field"
    )
    return merge_over(base, built)


def body_document(schemas: Mapping[str, Any], operation_id: str) -> tuple[Document, Any] | None:
    """The operation's request body schema and the document its $refs resolve in (the
    schema file's bundle); None when the contract shows no body schema."""
    schema = schemas.get("bodies", {}).get(operation_id)
    if schema is None:
        return None

    return Document(schemas.get("bundle", {})), schema


def check_field_keys(found: tuple[Document, Any] | None, fields: Sequence[str]) -> None:
    """Refuse a --field path the body schema closes out (a typo the service would drop),
    before anything is sent; --data stays as given."""
    if found is None:
        return

    paths = FieldPaths(*found)
    for raw in fields:
        paths.resolve(raw.partition("=")[0].strip(), what="--field")


def load_schemas(path: Path) -> dict[str, Any]:
    """The schema file of the active contract (read only when something is validated)."""
    try:
        with path.open(encoding="utf-8") as handle:
            found: dict[str, Any] = json.load(handle)
    except (OSError, ValueError) as error:
        raise UsageError(
            f"cannot read the contract's schemas ({path}): {error}",
            hint="import the contract again with `leadctl contract import` or `pull`",
        ) from None
    return found


def check_body(schemas: Mapping[str, Any], operation_id: str, body: Any) -> None:
    """Raise BodyInvalid unless ``body`` matches the operation's request body schema."""
    schema = schemas.get("bodies", {}).get(operation_id)
    if schema is None:
        return
    errors = _errors(schemas.get("bundle", {}), schema, body)
    if errors:
        raise BodyInvalid(errors)


def check_params(schemas: Mapping[str, Any], operation_id: str, values: Mapping[str, Any]) -> None:
    """Raise UsageError when a parameter breaks its schema (pattern, range, format...)."""
    checked = schemas.get("params", {}).get(operation_id) or {}
    for name, value in values.items():
        schema = checked.get(name)
        if schema is None:
            continue
        for field, messages in _errors(schemas.get("bundle", {}), schema, value).items():
            where = name if field == "body" else f"{name}{field}"
            raise UsageError(f"parameter {where}: {messages[0]}; nothing was sent")


def _errors(bundle: Mapping[str, Any], schema: Any, instance: Any) -> dict[str, list[str]]:
    import jsonschema_rs

    root = {**bundle, "allOf": [schema]}
    validator = jsonschema_rs.Draft202012Validator(root, validate_formats=True)
    errors: dict[str, list[str]] = {}
    # A message quotes the value it refuses, which may be (or hold) a secret.
    hidden = secret_values(instance)
    for error in validator.iter_errors(instance):
        path = list(error.instance_path)
        field = _field_path(path)
        secret = any(is_secret(str(part)) for part in path)
        message = "is not valid here" if secret else mask_secrets(error.message, hidden)
        messages = errors.setdefault(field, [])
        if message not in messages:
            messages.append(message)
    return errors


def _field_path(parts: Sequence[Any]) -> str:
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "body"

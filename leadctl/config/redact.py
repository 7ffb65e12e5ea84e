"""Keeping credentials and secrets out of everything leadctl prints about a request.

Which member or header is a secret is :func:`leadctl.util.secret_fields.is_secret`'s to say
(by its name, anywhere in it); here it is applied to JSON, headers and text. A known secret
(the credential in use) is also found where a service echoes it in another form: without
its kind prefix, base64-encoded (inside a longer base64 text too) or percent-encoded.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, quote, quote_plus, urlencode

from leadctl.util.secret_fields import mask_members, name_is_secret, secret_members

MASK = "***"

# Tokens that look like leadctl credential kinds, wherever they appear in free text.
_CREDENTIAL_SHAPES = (
    r"sk_[A-Za-z0-9_\-]{4,}|src_[A-Za-z0-9_\-]{4,}"
    r"|eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+"
)
_SHAPED = re.compile(f"({_CREDENTIAL_SHAPES})")
# ...and in a trace, whatever follows "Bearer" (an Authorization header quoted in a body).
_SECRET_VALUES = re.compile(f"({_CREDENTIAL_SHAPES}|(?i:bearer)\\s+\\S+)")
# A kind prefix such as "sk_" or "sk_live_" that a service may leave out when it echoes a key.
_KIND_PREFIX = re.compile(r"[a-z]{1,8}_")
# Shorter forms would mask ordinary words; a key is much longer than this.
MIN_FORM_LENGTH = 8
# The member of a problem document whose keys are field names, not secrets.
FIELD_ERRORS = "errors"


def is_secret_key(key: str) -> bool:
    """Whether a JSON member or header named ``key`` holds a secret (by its name alone)."""
    return name_is_secret(key)


def redact_json(
    value: Any,
    *,
    secret_key: Callable[[str], bool] = is_secret_key,
    in_text: bool = True,
    secrets: Iterable[str] = (),
) -> Any:
    """``value`` with every member under a ``secret_key`` masked, at any depth (see
    :func:`~leadctl.util.secret_fields.mask_members`); with ``in_text``, credential-shaped
    tokens and every form of ``secrets`` inside the other strings too."""
    known = tuple(secrets)
    return mask_members(
        value,
        mask=lambda _secret: MASK,
        secret_key=secret_key,
        text=(lambda text: redact_text(text, known)) if in_text else None,
    )


def secret_values(value: Any, *, secret_key: Callable[[str], bool] = is_secret_key) -> list[str]:
    """The texts ``redact_json`` would mask in ``value``."""
    return secret_members(value, secret_key=secret_key)


def redact_problem(problem: Mapping[str, Any], secrets: Iterable[str] = ()) -> dict[str, Any]:
    """A service's problem document with secret members, credential-shaped tokens and every
    form of ``secrets`` masked; the field errors keep their field names (``apiKey: must not
    be empty`` says which field). Its words are otherwise kept: "Bearer token required"
    stays readable."""
    known = tuple(secrets)

    def text(value: str) -> str:
        return _SHAPED.sub(MASK, mask_secrets(value, known))

    out: dict[str, Any] = {}
    for key, value in problem.items():
        if key == FIELD_ERRORS and isinstance(value, Mapping):
            out[key] = {
                field: mask_members(messages, mask=lambda _v: MASK, secret_key=_never, text=text)
                for field, messages in value.items()
            }
        else:
            out[key] = mask_members({key: value}, mask=lambda _v: MASK, text=text)[key]
    return out


def _never(_key: str) -> bool:
    return False


@lru_cache(maxsize=64)
def secret_forms(secret: str) -> tuple[str, ...]:
    """The forms a service may echo ``secret`` in, longest first: as is, without its kind
    prefix (``sk_``, ``sk_live_``), percent-encoded, and base64 (standard or URL-safe, padded
    or not, and the part of it that shows inside the base64 of a longer text)."""
    variants = [secret]
    rest = secret
    while (found := _KIND_PREFIX.match(rest)) and len(rest) - found.end() >= MIN_FORM_LENGTH:
        rest = rest[found.end() :]
        variants.append(rest)
    forms: set[str] = set()
    for variant in variants:
        if len(variant) < MIN_FORM_LENGTH:
            continue
        forms |= {variant, quote(variant, safe=""), quote_plus(variant)}
        forms |= {re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), f) for f in forms}
        forms |= _base64_forms(variant.encode("utf-8"))
    return tuple(sorted((f for f in forms if len(f) >= MIN_FORM_LENGTH), key=len, reverse=True))


def _base64_forms(data: bytes) -> set[str]:
    found: set[str] = set()
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(data).decode("ascii")
        found |= {whole, whole.rstrip("=")}
        for shift in range(3):
            # Inside a longer text the first and last characters mix in the bytes around
            # the secret; the ones between depend on the secret alone.
            encoded = encode(b"\0" * shift + data).decode("ascii")
            found.add(encoded[-(-shift * 4 // 3) : len(encoded) - 4])
    return found


def mask_secrets(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every form of each of ``secrets`` masked (the rest as it was)."""
    for secret in secrets:
        if secret:
            for form in secret_forms(secret):
                text = text.replace(form, MASK)
    return text


def redact_text(text: str, extra_secrets: Iterable[str] = ()) -> str:
    return _SECRET_VALUES.sub(MASK, mask_secrets(text, extra_secrets))


def redact_headers(
    headers: Iterable[tuple[str, str]], extra_sensitive: Iterable[str] = ()
) -> list[tuple[str, str]]:
    """Headers with the value of each secret one (``Authorization``, ``X-Api-Key``,
    ``Cookie``, ``webhook-signature``, any named in ``extra_sensitive``) masked."""
    sensitive = {h.lower() for h in extra_sensitive}
    return [(k, MASK if name_is_secret(k) or k.lower() in sensitive else v) for k, v in headers]


def redact_body(
    raw: bytes,
    content_type: str | None,
    extra_secrets: Iterable[str] = (),
    *,
    secret_key: Callable[[str], bool] = is_secret_key,
    in_text: bool = True,
) -> str:
    """A printable, secret-free rendering of a request or response body: JSON and form
    members under a ``secret_key`` masked; with ``in_text``, credential-shaped tokens and
    every form of ``extra_secrets`` anywhere in it."""
    text = raw.decode("utf-8", errors="replace")
    media = (content_type or "").split(";")[0].strip().lower()
    if "json" in media:
        try:
            masked = redact_json(
                json.loads(text), secret_key=secret_key, in_text=in_text, secrets=extra_secrets
            )
            return json.dumps(masked, ensure_ascii=False)
        except (ValueError, RecursionError):  # not JSON, or too deep to walk: as text
            pass
    if media == "application/x-www-form-urlencoded":
        pairs = parse_qsl(text, keep_blank_values=True)
        if any(secret_key(k) and v for k, v in pairs):
            text = urlencode([(k, MASK if secret_key(k) and v else v) for k, v in pairs])
    return redact_text(text, extra_secrets) if in_text else text

"""Which field, key or header holds a secret: one rule for every place leadctl masks one.

``is_secret`` answers from what is known of a field: always its name, and, where a contract
describes it, whether it is ``writeOnly``, its ``format`` and type, and its description.
Commands that know the schema (tables, ``--dry-run``, read-modify-write) pass those facts;
``--debug``, header masking and error output have only the name. Both ask this function.

A name says secret when one of its words does (``clientSecret``, ``newApiKey``,
``refresh_token``, ``X-Api-Key``, ``webhook-signature``), wherever in the name that word
sits. What only describes a secret is not one: ids (``keyId``), previews and hints
(``apiKeyPreview``), timestamps and durations (``apiKeyRotatedAt``, ``expires_in``), names,
types and URLs (``token_type``, ``token_endpoint``), and keys or tokens of other kinds
(``idempotencyKey``, ``continuationToken``, ``publicKey``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

# Words that make a name a secret's, as whole words.
SECRET_WORDS = frozenset(
    {
        "key", "keys", "apikey", "apikeys", "secret", "secrets", "token", "tokens",
        "password", "passwords", "passwd", "pwd", "passphrase", "credential", "credentials",
        "auth", "authorization", "signature", "signatures", "cookie", "cookies",
    }
)  # fmt: skip
# Inside a run-together lower-case word (``xapikey``, ``accesstoken``, ``clientsecret``).
SECRET_STEMS = ("secret", "password", "passwd", "passphrase", "token", "apikey", "credential")
# A last word that makes the field something about a secret rather than the secret.
ABOUT_WORDS = frozenset(
    {
        # identifiers
        "id", "ids", "uuid", "guid", "kid",
        # previews and hints
        "preview", "previews", "hint", "last4", "last", "prefix", "suffix", "mask", "masked",
        "fingerprint", "hash", "digest",
        # times and durations
        "at", "on", "date", "time", "timestamp", "expires", "expiry", "expiration", "exp",
        "in", "seconds", "ttl", "lifetime", "duration", "age", "created", "updated",
        "rotated", "issued", "revoked", "used",
        # what kind, where, how many, whether
        "name", "names", "type", "types", "kind", "algorithm", "algorithms", "alg", "url",
        "uri", "endpoint", "endpoints", "location", "header", "policy", "version", "format",
        "method", "methods", "scheme", "schemes", "count", "length", "size", "usage",
        "status", "enabled", "required", "supported", "allowed", "present", "exists",
    }
)  # fmt: skip
# Words beside "key" or "token" that make it another kind of key or token.
OTHER_KINDS = frozenset(
    {
        "idempotency", "sort", "partition", "primary", "foreign", "public", "cache",
        "lookup", "dedup", "deduplication", "continuation", "next", "previous", "prev",
        "page", "paging", "pagination", "cursor", "sync", "resume", "correlation",
    }
)  # fmt: skip
# Formats no secret has.
NOT_SECRET_FORMATS = frozenset(
    {"date-time", "date", "time", "duration", "uuid", "uri", "url", "email", "int32", "int64"}
)
# A description that says the field is a secret (its first sentence is read).
_SAYS_SECRET = re.compile(
    r"\b(api[ -]?key|secret|password|passphrase|private key|signing key|intake key"
    r"|access token|refresh token|bearer token|credential)s?\b",
    re.IGNORECASE,
)
# ...unless it says it is only about one.
_SAYS_ABOUT = re.compile(
    r"\b(preview|last (four|4)|masked|identifier|id of|expir\w*)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def name_words(name: str) -> list[str]:
    """``newApiKey`` -> new, api, key; ``X-Api-Key`` -> x, api, key; ``APIKey`` -> api, key."""
    return [word.lower() for word in _WORD.findall(name)]


def _names_a_secret(words: list[str]) -> bool:
    found = [w for w in words if w in SECRET_WORDS or any(s in w for s in SECRET_STEMS)]
    if not found:
        return False
    return not any(w in OTHER_KINDS for w in words)


@lru_cache(maxsize=4096)
def is_about_a_secret(name: str) -> bool:
    """An id, preview, timestamp, name, type... of a secret (or of anything): never masked,
    even inside an object that is a secret's."""
    words = name_words(name)
    # A version or size at the end says nothing: apiKeyLast4, X-Hub-Signature-256.
    while words and words[-1].isdigit():
        words.pop()
    return bool(words) and words[-1] in ABOUT_WORDS


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text


def is_secret(
    name: str,
    *,
    description: str | None = None,
    write_only: bool = False,
    fmt: str | None = None,
    kind: str | None = None,
) -> bool:
    """Whether the field (or key, or header) ``name`` holds a secret.

    ``description``, ``write_only``, ``fmt`` and ``kind`` are what a schema says of it, when
    one does: a field that is not a string (a boolean that asks for a new key, an object
    holding one) is not itself a secret; ``format: password`` and ``writeOnly`` are.
    """
    if kind is not None and kind != "string":
        return False
    if fmt == "password":
        return True
    if fmt in NOT_SECRET_FORMATS or is_about_a_secret(name):
        return False
    if write_only or _names_a_secret(name_words(name)):
        return True
    if description:
        sentence = _first_sentence(description)
        return bool(_SAYS_SECRET.search(sentence)) and not _SAYS_ABOUT.search(sentence)
    return False


@lru_cache(maxsize=4096)
def name_is_secret(name: str) -> bool:
    """``is_secret`` of a name alone (no schema facts), cached: a bulk run asks about the
    same few member names for every row it sends."""
    return is_secret(name)


def _maskable(value: Any) -> bool:
    if isinstance(value, str):
        return value != ""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mask_members(
    value: Any,
    *,
    mask: Callable[[Any], Any],
    secret_key: Callable[[str], bool] = name_is_secret,
    text: Callable[[str], str] | None = None,
    inside_secret: bool = False,
) -> Any:
    """JSON ``value`` with ``mask(v)`` for each value under a ``secret_key``, at any depth;
    ``text`` (when given) applied to every other string.

    What an object or list under a secret key holds is masked as well (``credentials:
    {user, pass}``), except members that only describe a secret (its id, preview, name,
    timestamps), which stay readable. Empty strings, booleans and nulls have nothing to
    hide.
    """
    if isinstance(value, Mapping):
        out: dict[Any, Any] = {}
        for raw_key, item in value.items():
            key = str(raw_key)
            secret = secret_key(key) or (inside_secret and not is_about_a_secret(key))
            out[raw_key] = mask_members(
                item, mask=mask, secret_key=secret_key, text=text, inside_secret=secret
            )
        return out
    if isinstance(value, list):
        return [
            mask_members(
                item, mask=mask, secret_key=secret_key, text=text, inside_secret=inside_secret
            )
            for item in value
        ]
    if inside_secret and _maskable(value):
        return mask(value)
    if text is not None and isinstance(value, str):
        return text(value)
    return value


def secret_members(
    value: Any, *, secret_key: Callable[[str], bool] = name_is_secret, inside_secret: bool = False
) -> list[str]:
    """The values ``mask_members`` would mask in ``value``, as text: so that an answer
    echoing one of them (an error quoting the body it refused) can be masked too. (Its own
    walk, building nothing: it runs for every request a bulk run sends.)"""
    found: list[str] = []
    stack: list[tuple[Any, bool]] = [(value, inside_secret)]
    while stack:
        item, inside = stack.pop()
        if isinstance(item, Mapping):
            for raw_key, member in item.items():
                key = str(raw_key)
                secret = secret_key(key) or (inside and not is_about_a_secret(key))
                stack.append((member, secret))
        elif isinstance(item, list):
            stack.extend((element, inside) for element in item)
        elif inside and _maskable(item):
            found.append(str(item))
    return found

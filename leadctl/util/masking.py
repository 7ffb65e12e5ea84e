"""Secrets shown masked: enough to tell two apart, never enough to use one.

Table cells (``mask_secret``) and credential previews (``Credential.preview``) word the
mask differently but follow one rule, kept here: only a value of at least
:data:`TAIL_MIN_LENGTH` characters shows its last four; a shorter one shows none of itself.
"""

from __future__ import annotations

SECRET_MASK = "••••"
# Four characters of twenty or more leave at least sixteen unknown; of a shorter value,
# four would be too large a share of it.
TAIL_MIN_LENGTH = 20


def secret_tail(value: str) -> str:
    """The last four characters of a long secret, "" for a short one."""
    return value[-4:] if len(value) >= TAIL_MIN_LENGTH else ""


def mask_secret(value: str) -> str:
    """A short kind prefix such as ``sk_`` and, for long values, the last four characters."""
    if not value:
        return ""
    word, underscore, _ = value.partition("_")
    # Only a word like "sk" or "src" counts as a kind prefix: "_" is also a base64url
    # character, and random characters before it are part of the secret.
    is_kind = 0 < len(word) <= 4 and word.isascii() and word.isalpha() and word.islower()
    prefix = word + "_" if underscore and is_kind else ""
    tail = secret_tail(value)
    return f"{prefix}…{tail}" if tail else f"{prefix}{SECRET_MASK}"

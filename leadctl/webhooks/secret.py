"""The webhook signing secret: what a good one looks like, where it is found, where it is kept.

A Standard Webhooks secret is ``whsec_`` and the base64 of a random key. It is a credential:
never an argument, never printed. Found, first hit wins: ``--secret-file PATH`` (named on
this command line, so it beats the shell's environment, as every flag does), then
``LEADCTL_WEBHOOK_SECRET``, then the profile's OS keyring entry that ``webhooks secret set``
stores (service ``leadctl-webhook``, user = the profile's name; the profile's API credential
lives under service ``leadctl``, so the two never overwrite each other).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from pathlib import Path

from leadctl.config.credentials import keyring_entry, store_keyring_entry
from leadctl.config.settings import validate_profile_name
from leadctl.errors import KeyringUnavailable, NotAuthenticated, UsageError

ENV_VAR = "LEADCTL_WEBHOOK_SECRET"
KEYRING_SERVICE = "leadctl-webhook"
PREFIX = "whsec_"
# Asymmetric Standard Webhooks keys (ed25519, "v1a" signatures): not what this scheme signs with.
_ASYMMETRIC_PREFIXES = ("whpk_", "whsk_")
# A key file is a line of text; anything bigger was not meant to be one.
_MAX_FILE_BYTES = 64 * 1024
_NO_SECRET_HINT = (
    f"set {ENV_VAR}, pass --secret-file PATH, or store one for this profile with "
    "`leadctl webhooks secret set`"
)


class WebhookSecret:
    """A checked secret; its text is shown nowhere (repr and str are masked)."""

    __slots__ = ("origin", "text")

    def __init__(self, text: str, origin: str) -> None:
        self.text = text
        # Where it came from, for messages ("--secret-file key.txt"); never the value.
        self.origin = origin

    def __repr__(self) -> str:
        return f"WebhookSecret(origin={self.origin!r}, text=***)"

    __str__ = __repr__


def parse_secret(raw: str, *, origin: str) -> WebhookSecret:
    """``raw`` (surrounding whitespace removed) as a secret; UsageError (exit 2) naming what
    is wrong, never echoing the value."""
    text = raw.strip()
    if not text:
        raise UsageError(f"the webhook secret from {origin} is empty")
    if text.startswith(_ASYMMETRIC_PREFIXES):
        raise UsageError(
            f"the webhook secret from {origin} is an asymmetric (ed25519) key; "
            "these deliveries are signed with a shared whsec_ secret (HMAC-SHA256)"
        )
    encoded = text.removeprefix(PREFIX)
    if not encoded.isascii() or any(ch.isspace() or not ch.isprintable() for ch in encoded):
        raise UsageError(
            f"the webhook secret from {origin} contains whitespace, control or non-ASCII "
            "characters",
            hint="it must be whsec_ followed by base64, on one line",
        )
    try:
        # Padding is often left off when a secret is pasted; the alphabet is checked strictly.
        key = base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise UsageError(
            f"the webhook secret from {origin} is not whsec_ followed by base64",
            hint="copy the whole secret the sender shows (whsec_...)",
        ) from None
    if not key:
        raise UsageError(f"the webhook secret from {origin} holds an empty key")
    return WebhookSecret(PREFIX + encoded, origin)


def find_secret(*, env: Mapping[str, str], profile: str, secret_file: str | None) -> WebhookSecret:
    """The secret by the order above; NotAuthenticated (exit 3) when there is none,
    UsageError (exit 2) when the one found is malformed or its file unreadable."""
    if secret_file is not None:
        return _from_file(secret_file)
    from_env = env.get(ENV_VAR, "")
    if from_env.strip():
        return parse_secret(from_env, origin=ENV_VAR)
    stored = _keyring_read(validate_profile_name(profile))
    if stored is None:
        raise NotAuthenticated(f"no webhook secret for profile {profile!r}", hint=_NO_SECRET_HINT)
    return parse_secret(stored, origin=f"the OS keyring (profile {profile})")


def store_secret(*, profile: str, secret: WebhookSecret) -> str:
    """Keep ``secret`` as the profile's; returns where it went, for the user."""
    user = validate_profile_name(profile)
    try:
        store_keyring_entry(KEYRING_SERVICE, user, secret.text)
    except KeyringUnavailable as error:
        raise NotAuthenticated(
            error.message,
            hint=f"without a keyring, give the secret with {ENV_VAR} or --secret-file PATH "
            "(a 0600 file) on each command",
        ) from None
    return f"OS keyring (service {KEYRING_SERVICE}, user {user})"


def _keyring_read(profile: str) -> str | None:
    try:
        return keyring_entry(KEYRING_SERVICE, profile)
    except KeyringUnavailable as error:
        raise NotAuthenticated(
            f"no webhook secret in the environment or a file, and {error.message}",
            hint=f"set {ENV_VAR} or pass --secret-file PATH",
        ) from None


def _from_file(name: str) -> WebhookSecret:
    path = Path(name).expanduser()
    origin = f"--secret-file {name}"
    try:
        with path.open("rb") as handle:
            data = handle.read(_MAX_FILE_BYTES + 1)
    except OSError as error:
        raise UsageError(f"cannot read {origin}: {error.strerror or error}") from None
    if len(data) > _MAX_FILE_BYTES:
        raise UsageError(f"{origin} is too large to be a webhook secret")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{origin} is not text") from None
    return parse_secret(text, origin=origin)

"""Where a profile's credential comes from, and where ``auth login`` puts it.

Lookup order (cli.md): LEADCTL_TOKEN, LEADCTL_TOKEN_FILE, then the profile's store: the OS
keyring, or the 0600 file store for profiles saved with ``--insecure-storage``. keyring is
imported only when the keyring is really consulted, and every keyring call runs in a daemon
thread with a deadline: a locked or wedged keyring is an error, never a hang.
"""

from __future__ import annotations

import dataclasses
import os
import stat
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from leadctl.config.dirs import config_dir
from leadctl.config.private_files import ensure_private_dir, write_private_file
from leadctl.config.settings import validate_profile_name
from leadctl.config.tokens import BadTokenSet, from_stored, is_stored_token_set
from leadctl.errors import KeyringUnavailable, LeadctlError, NotAuthenticated, UsageError
from leadctl.util.jwt import jwt_expiry, looks_like_jwt
from leadctl.util.masking import secret_tail

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

    from leadctl.config.tokens import TokenSet

T = TypeVar("T")

KEYRING_SERVICE = "leadctl"
KEYRING_TIMEOUT = 3.0
CREDENTIALS_DIR = "credentials"


class CredentialKind(str, Enum):
    ORG = "org"
    USER = "user"
    SOURCE = "source"
    # Neither an sk_ key, a JWT, nor a source-key prefix the contract names, and not stated:
    # sent as a bearer credential, and the service decides (cli.md "Credentials").
    UNKNOWN = "unknown"


def make_credential(
    value: str, kind: CredentialKind, origin: str, *, declared: bool = False
) -> Credential:
    """A credential, with its expiry when the value is a JWT."""
    expires_at = jwt_expiry(value) if kind is CredentialKind.USER else None
    return Credential(value, kind, origin, kind_declared=declared, expires_at=expires_at)


def detect_kind(value: str, source_prefixes: Iterable[str] = ()) -> CredentialKind:
    """The kind a value's shape says: ``sk_`` an organization key, a JWT a user token, a
    prefix the active contract's source-key scheme names a source key; else unknown."""
    if value.startswith("sk_"):
        return CredentialKind.ORG
    if looks_like_jwt(value):
        return CredentialKind.USER
    if any(value.startswith(prefix) for prefix in source_prefixes):
        return CredentialKind.SOURCE
    return CredentialKind.UNKNOWN


def with_contract_prefixes(credential: Credential, source_prefixes: Iterable[str]) -> Credential:
    """``credential``, recognised as a source key when its value starts with a prefix the
    active contract names and nothing else said what it is."""
    if credential.kind is not CredentialKind.UNKNOWN:
        return credential
    kind = detect_kind(credential.value, source_prefixes)
    if kind is CredentialKind.UNKNOWN:
        return credential
    return dataclasses.replace(credential, kind=kind)


@dataclass(frozen=True, repr=False)
class Credential:
    value: str
    kind: CredentialKind
    origin: str
    # Whether the kind was stated (the profile, ``auth login --kind``) rather than read
    # from the value's shape.
    kind_declared: bool = False
    # When the service stops accepting it (a JWT's exp, an OAuth token's expiry), if known.
    expires_at: float | None = None
    # The whole OAuth token set when the value is an OAuth access token (refreshable).
    oauth: TokenSet | None = field(default=None, compare=False)

    @property
    def recognised(self) -> bool:
        """Whether the kind is known: declared, or by its shape (``sk_``, a JWT, a prefix
        the contract names)."""
        return self.kind is not CredentialKind.UNKNOWN

    def preview(self) -> str:
        """A masked form safe to print: the ``sk_`` marker and at most the last 4 characters."""
        tail = secret_tail(self.value)
        if not tail:
            return "…"
        prefix = "sk_" if self.kind is CredentialKind.ORG and self.value.startswith("sk_") else ""
        return f"{prefix}…{tail}"

    def __repr__(self) -> str:
        return f"Credential(kind={self.kind.value}, origin={self.origin!r}, value={self.preview()})"

    __str__ = __repr__


# -- cleaning values -------------------------------------------------------------------


def _clean(value: str, *, source: str) -> str | None:
    """The value without surrounding whitespace; None when empty.

    Whitespace inside would corrupt the Authorization header, so it is refused (without
    echoing the value).
    """
    cleaned = value.strip()
    if not cleaned:
        return None
    # Non-ASCII too: an HTTP header carries ASCII only, and httpx would fail mid-request.
    if any(ch.isspace() or not ch.isprintable() or not ch.isascii() for ch in cleaned):
        raise NotAuthenticated(
            f"the credential from {source} contains whitespace, control or non-ASCII characters",
            hint="it must be the bare token, on one line",
        )
    return cleaned


# -- environment -----------------------------------------------------------------------


def _from_env(env: Mapping[str, str]) -> Credential | None:
    token = _clean(env.get("LEADCTL_TOKEN", ""), source="LEADCTL_TOKEN")
    if token is not None:
        return make_credential(token, detect_kind(token), "LEADCTL_TOKEN")
    file_name = env.get("LEADCTL_TOKEN_FILE", "")
    if not file_name:
        return None
    path = Path(file_name).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise NotAuthenticated(
            f"LEADCTL_TOKEN_FILE names {path}, which cannot be read: {reason}",
            hint="point LEADCTL_TOKEN_FILE at a readable file holding the credential, or unset it",
        ) from None
    token = _clean(text, source=f"LEADCTL_TOKEN_FILE ({path})")
    if token is None:
        raise NotAuthenticated(f"LEADCTL_TOKEN_FILE names {path}, which is empty")
    return make_credential(token, detect_kind(token), f"LEADCTL_TOKEN_FILE ({path})")


# -- the file store --------------------------------------------------------------------


def credential_file(env: Mapping[str, str], profile: str) -> Path:
    """Where ``--insecure-storage`` keeps a profile's credential."""
    return config_dir(env) / CREDENTIALS_DIR / validate_profile_name(profile)


def _describe_file(path: Path) -> str:
    return f"file {path} (0600)"


def _read_file_store(path: Path, profile: str) -> str | None:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        raise NotAuthenticated(
            f"cannot read the credential file {path}: {error.strerror}"
        ) from None
    # Like ssh with a private key: a secret others can read is refused, not quietly used.
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise NotAuthenticated(
            f"the credential file {path} is accessible by other users "
            f"(mode {stat.S_IMODE(mode):04o})",
            hint=f"run `chmod 600 {path}`, or log in again with "
            f"`leadctl auth login --profile {profile} --insecure-storage`",
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise NotAuthenticated(f"cannot read the credential file {path}") from None
    return _clean(text, source=str(path))


def _save_file_store(path: Path, value: str) -> None:
    ensure_private_dir(path.parent.parent)
    ensure_private_dir(path.parent)
    write_private_file(path, (value + "\n").encode("utf-8"))


def _remove_file(path: Path) -> bool:
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as error:
        raise LeadctlError(f"cannot remove the credential file {path}: {error.strerror}") from None
    return True


# -- the OS keyring --------------------------------------------------------------------


def _describe_keyring(profile: str) -> str:
    return f"OS keyring (service {KEYRING_SERVICE}, user {profile})"


def _with_deadline(call: Callable[[], T], what: str) -> T:
    """Run one keyring call in a daemon thread; KeyringUnavailable if it fails or hangs.

    A hung D-Bus or an unanswered unlock dialog must not freeze the CLI; the abandoned
    thread is a daemon and dies with the process.
    """
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["result"] = call()
        except Exception as error:  # any backend failure is reported the same way
            outcome["error"] = error

    thread = threading.Thread(target=target, name="leadctl-keyring", daemon=True)
    thread.start()
    thread.join(KEYRING_TIMEOUT)
    if thread.is_alive():
        raise KeyringUnavailable(f"no answer within {KEYRING_TIMEOUT:g} s while {what}")
    error = outcome.get("error")
    if isinstance(error, KeyringUnavailable):
        raise error
    if error is not None:
        raise KeyringUnavailable(f"{what} failed: {_describe_error(error)}") from None
    result: T = outcome["result"]
    return result


def _describe_error(error: Exception) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _discover_backend() -> KeyringBackend:
    import keyring
    from keyring.backends import fail, null

    backend = keyring.get_keyring()
    if isinstance(backend, fail.Keyring):
        raise KeyringUnavailable("no keyring backend is available on this system")
    if isinstance(backend, null.Keyring):
        raise KeyringUnavailable("the keyring is disabled (null backend)")
    return backend


def _keyring() -> KeyringBackend:
    return _with_deadline(_discover_backend, "looking for the keyring backend")


def keyring_entry(service: str, user: str) -> str | None:
    """One entry of the OS keyring, read under the deadline (KeyringUnavailable otherwise);
    other secrets than a profile's credential (the webhook secret) use their own service."""
    backend = _keyring()
    value: str | None = _with_deadline(
        lambda: backend.get_password(service, user), "reading the credential"
    )
    return value


def store_keyring_entry(service: str, user: str, value: str) -> None:
    backend = _keyring()
    _with_deadline(lambda: backend.set_password(service, user, value), "storing the credential")


def _keyring_get(profile: str) -> str | None:
    return keyring_entry(KEYRING_SERVICE, profile)


def _keyring_set(profile: str, value: str) -> None:
    store_keyring_entry(KEYRING_SERVICE, profile, value)


def _keyring_delete(profile: str) -> bool:
    backend = _keyring()
    # Backends disagree on what deleting a missing entry does; asking first avoids guessing.
    present = _with_deadline(
        lambda: backend.get_password(KEYRING_SERVICE, profile), "reading the credential"
    )
    if present is None:
        return False
    _with_deadline(
        lambda: backend.delete_password(KEYRING_SERVICE, profile), "deleting the credential"
    )
    return True


# -- the API ---------------------------------------------------------------------------


def oauth_credential(tokens: TokenSet, origin: str) -> Credential:
    """The credential sent for an OAuth sign-in: its access token, a user token."""
    return Credential(
        tokens.access_token,
        CredentialKind.USER,
        origin,
        kind_declared=True,
        expires_at=tokens.expires_at,
        oauth=tokens,
    )


def _stored(
    value: str, origin: str, profile: str, profile_settings: Mapping[str, Any]
) -> Credential:
    if is_stored_token_set(value):
        try:
            return oauth_credential(from_stored(value), origin)
        except BadTokenSet as error:
            raise NotAuthenticated(
                f"{error} ({origin})", hint=_relogin(profile, "auth login --device")
            ) from None
    recorded = profile_settings.get("credential_kind")
    if recorded is None:
        return make_credential(value, detect_kind(value), origin)
    try:
        kind = CredentialKind(recorded)
    except ValueError:
        raise UsageError(
            f"profile {profile!r} has an unknown credential_kind {recorded!r}",
            hint="log in again with `leadctl auth login`",
        ) from None
    return make_credential(value, kind, origin, declared=True)


def _relogin(profile: str, command: str) -> str:
    flag = "" if profile == "default" else f" -p {profile}"
    return f"log in again: leadctl{flag} {command}"


def lookup_credential(
    *, env: Mapping[str, str], profile: str, profile_settings: Mapping[str, Any]
) -> Credential | None:
    """The credential by the order of cli.md, or None when no source has one.

    A plain-file credential is used without a word: `auth login --insecure-storage` and
    `auth status` say where it is, and a warning on every use would fill cron mail.
    """
    found = _from_env(env)
    if found is not None:
        return found
    return stored_credential(env=env, profile=profile, profile_settings=profile_settings)


def stored_credential(
    *, env: Mapping[str, str], profile: str, profile_settings: Mapping[str, Any]
) -> Credential | None:
    """The profile's own stored credential, ignoring LEADCTL_TOKEN (logout, refresh)."""
    if profile_settings.get("credential_store") == "file":
        path = credential_file(env, profile)
        value = _read_file_store(path, profile)
        if value is None:
            return None
        return _stored(value, _describe_file(path), profile, profile_settings)
    if profile_settings.get("credential_store") != "keyring":
        # Never logged in: asking the keyring could only fail or hang, never find anything.
        return None
    validate_profile_name(profile)
    stored = _keyring_get(profile)
    value = _clean(stored, source="the OS keyring") if stored is not None else None
    if value is None:
        return None
    return _stored(value, _describe_keyring(profile), profile, profile_settings)


def check_store(*, env: Mapping[str, str], profile: str, insecure: bool) -> str:
    """Prove the store ``save_credential`` would use works, before a secret exists;
    returns its description.

    ``auth login`` calls this before prompting and ``sources rotate --save-profile``
    before rotating: finding a locked keyring after the key was rotated is too late.
    """
    validate_profile_name(profile)
    path = credential_file(env, profile)
    if insecure:
        # Creates nothing: a refused login leaves no trace. The nearest directory that
        # exists must let us create what is missing below it.
        existing = path.parent
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
            raise LeadctlError(f"cannot store credentials under {existing}: not writable")
        return _describe_file(path)
    # A read goes through discovery and the unlock path without changing anything.
    _keyring_get(profile)
    return _describe_keyring(profile)


def save_credential(*, env: Mapping[str, str], profile: str, value: str, insecure: bool) -> str:
    """Store ``value`` for ``profile``; returns where it went, for the user.

    ``insecure`` selects the 0600 file store and never touches the keyring. Saving to the
    keyring removes a file-store copy left by an earlier ``--insecure-storage`` login.
    """
    validate_profile_name(profile)
    cleaned = _clean(value, source="the input")
    if cleaned is None:
        raise UsageError("the credential is empty")
    path = credential_file(env, profile)
    if insecure:
        _save_file_store(path, cleaned)
        return _describe_file(path)
    _keyring_set(profile, cleaned)
    _remove_file(path)
    return _describe_keyring(profile)


def delete_credential(
    *, env: Mapping[str, str], profile: str, profile_settings: Mapping[str, Any]
) -> bool:
    """Remove the profile's stored credential; whether anything was removed.

    A file-store profile never touches the keyring, so this works where none exists.
    """
    path = credential_file(env, profile)
    store = profile_settings.get("credential_store")
    if store == "file":
        return _remove_file(path)
    if store != "keyring":
        return _remove_file(path)
    removed = _keyring_delete(profile)
    return _remove_file(path) or removed

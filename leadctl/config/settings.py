"""Profiles in ``config.toml``: where the file lives, reading it, and locked atomic updates.

The config never holds a secret: only the keys below are accepted, and credentials live in
the keyring or the credential file store (``leadctl.config.credentials``). Reading creates nothing;
only :func:`update_config` writes, under a file lock so concurrent runs cannot lose changes.
"""

from __future__ import annotations

import contextlib
import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from leadctl.config.dirs import config_path
from leadctl.config.private_files import ensure_private_dir, write_private_file
from leadctl.errors import LeadctlError, UsageError
from leadctl.formats import OUTPUT_FORMATS

T = TypeVar("T")

LOCK_FILE = "config.toml.lock"
# Long enough for a slow disk, short enough that a wedged process cannot hang every command.
LOCK_TIMEOUT = 30.0

PROFILE_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
REGION_PATTERN = re.compile(r"[A-Za-z]{2}")
# An alias is one word on the command line and a bare key in TOML (the completion scripts
# read the [aliases] table with sed, so no name is ever quoted there).
ALIAS_NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")

PROFILE_KEYS: Mapping[str, str] = {
    "base_url": "service base URL (https://...)",
    "output": "default output format: " + ", ".join(OUTPUT_FORMATS),
    "timeout": "per-request timeout in seconds",
    "region": "default region for phone numbers (ISO code such as US, GB)",
    "timezone": "IANA time zone for date-times given without an offset (default: the system's)",
    "ca_bundle": "path of a PEM file with the CA certificates to trust",
    "source_key_header": "HTTP header that carries a source key on lead intake",
    "phone_status_window_days_param": "query name of the window in days for `numbers status`",
    "phone_status_start_param": "query name of the start date for `numbers status`",
    "phone_status_end_param": "query name of the end date for `numbers status`",
    "order_direction_key": "orderBy property carrying the sort direction of "
    "`leads list --order-by -FIELD` (assumed: direction)",
    "contract_url": "where `contract pull` fetches the service's OpenAPI contract, on the "
    "profile's host (default: <base_url>/openapi.json, an assumption)",
    "retry_safe_operations": "operationIds (comma-separated) of generated commands that may "
    "be retried even after the request was sent",
    "retry_unsafe_operations": "operationIds (comma-separated) of generated commands that "
    "must never be retried once sent",
    "oauth_client_id": "OAuth client id for `auth login --device/--web` (default: dynamic "
    "registration where the authorization server offers it)",
    "oauth_scopes": "OAuth scopes (space-separated) for `auth login --device/--web` "
    "(default: openid offline_access, where the server lists them)",
    "rate_limit": "the service's published rate limit as N/WINDOW (e.g. 300/60s): "
    "`leads import`, `batch` and `--all` pace from the first request instead of waiting "
    "for a 429",
}
CREDENTIAL_STORES = ("keyring", "file")
CREDENTIAL_KINDS = ("org", "user", "source")
# Written by `auth login`, never by `profile set`.
INTERNAL_KEYS: Mapping[str, tuple[str, ...]] = {
    "credential_store": CREDENTIAL_STORES,
    "credential_kind": CREDENTIAL_KINDS,
}


@dataclass
class Config:
    current_profile: str | None = None
    profiles: dict[str, dict[str, Any]] = field(default_factory=dict)
    # `leadctl alias set`: name -> expansion ("!" first: run by sh), see config/aliases.py.
    aliases: dict[str, str] = field(default_factory=dict)
    # Top-level tables a newer leadctl may have written; kept so a rewrite does not drop them.
    extra: dict[str, Any] = field(default_factory=dict)


# -- validation ------------------------------------------------------------------------


def validate_profile_name(name: str) -> str:
    if not PROFILE_NAME_PATTERN.fullmatch(name):
        raise UsageError(
            f"invalid profile name {name!r}",
            hint="use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit",
        )
    return name


def _stored_value_problem(key: str, value: Any) -> str | None:
    """Why a value found in (or about to go into) the file is unusable, or None.

    Only the shape is checked: a CA bundle that has since been moved must not stop the user
    from running `profile set` to fix it.
    """
    if key in INTERNAL_KEYS:
        allowed = INTERNAL_KEYS[key]
        return None if value in allowed else "expected one of " + ", ".join(allowed)
    if key not in PROFILE_KEYS:
        return "not a profile key (secrets never belong in the config)"
    if key == "timeout":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return None if ok and math.isfinite(value) and value > 0 else "expected a positive number"
    if not isinstance(value, str) or not value.strip():
        return "expected a non-empty string"
    if key == "output" and value not in OUTPUT_FORMATS:
        return "expected one of " + ", ".join(OUTPUT_FORMATS)
    if key == "region" and not REGION_PATTERN.fullmatch(value):
        return "expected a two-letter region code"
    if key == "rate_limit":
        from leadctl.config.rate_limit import parse_rate_limit  # only a file that sets one

        try:
            parse_rate_limit(value, what="rate_limit")
        except UsageError as error:
            return error.message
    return None


def _check_config(config: Config, path: Path) -> None:
    names = list(config.profiles)
    if config.current_profile is not None:
        names.append(config.current_profile)
    for name in names:
        if not PROFILE_NAME_PATTERN.fullmatch(name):
            raise UsageError(f"{path}: invalid profile name {name!r}")
    for name, values in config.profiles.items():
        for key, value in values.items():
            problem = _stored_value_problem(key, value)
            if problem:
                raise UsageError(f"{path}: profile {name!r}, key {key!r}: {problem}")
    for name, expansion in config.aliases.items():
        if not ALIAS_NAME_PATTERN.fullmatch(name) or not isinstance(expansion, str):
            raise UsageError(
                f"{path}: [aliases] {name!r}: expected a name of letters, digits, '_' or '-' "
                "and a string expansion"
            )


# -- reading ---------------------------------------------------------------------------


def _config_from_toml(data: dict[str, Any], path: Path) -> Config:
    data = dict(data)
    current = data.pop("current_profile", None)
    if current is not None and not isinstance(current, str):
        raise UsageError(f"{path}: current_profile must be a string")
    profiles = data.pop("profiles", {})
    aliases = data.pop("aliases", {})
    if not isinstance(aliases, dict):
        raise UsageError(f"{path}: [aliases] must be a table of name = expansion")
    if not isinstance(profiles, dict) or not all(isinstance(v, dict) for v in profiles.values()):
        raise UsageError(f"{path}: [profiles] must hold one table per profile")
    config = Config(
        current_profile=current or None,
        profiles={name: dict(values) for name, values in profiles.items()},
        aliases=dict(aliases),
        extra=data,
    )
    _check_config(config, path)
    return config


def _read(path: Path) -> Config:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Config()
    except OSError as error:
        raise UsageError(f"cannot read the config file {path}: {error.strerror}") from None
    # Imported here: most invocations (a token in the environment, no config file) never
    # parse TOML, and tomllib compiles its regular expressions at import.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UsageError(f"the config file {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as error:
        raise UsageError(
            f"the config file {path} is not valid TOML: {error}",
            hint="fix or remove the file",
        ) from None
    return _config_from_toml(data, path)


def load_config(env: Mapping[str, str]) -> Config:
    """The config, or an empty one when there is no file. Creates nothing."""
    return _read(config_path(env))


# -- writing ---------------------------------------------------------------------------


def _config_to_toml(config: Config) -> bytes:
    import tomli_w

    data: dict[str, Any] = {}
    if config.current_profile:
        data["current_profile"] = config.current_profile
    data.update(config.extra)
    if config.aliases:
        data["aliases"] = dict(sorted(config.aliases.items()))
    data["profiles"] = config.profiles
    return tomli_w.dumps(data).encode("utf-8")


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    from filelock import FileLock, Timeout

    lock = FileLock(str(directory / LOCK_FILE), timeout=LOCK_TIMEOUT, mode=0o600)
    try:
        with lock:
            yield
    except Timeout:
        raise LeadctlError(
            f"the config is locked by another leadctl process ({directory / LOCK_FILE})",
            hint="wait for it to finish, or remove the lock file if no leadctl is running",
        ) from None


def update_config(env: Mapping[str, str], mutate: Callable[[Config], T]) -> T:
    """Change the config safely: lock, re-read, ``mutate`` in place, check, write atomically.

    Whatever ``mutate`` returns is returned; if it raises, nothing is written.
    """
    path = config_path(env)
    ensure_private_dir(path.parent)
    with _locked(path.parent):
        config = _read(path)
        result = mutate(config)
        _check_config(config, path)
        write_private_file(path, _config_to_toml(config))
    return result

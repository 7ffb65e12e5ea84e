"""A profile's credential bookkeeping, written once: the secret goes into (or out of) its
store, and the profile records its base URL, which store holds the secret and what kind
it is.

``auth login``, ``auth logout`` and ``sources rotate --save-profile`` use it, so the three
keys a credential leaves in the config (``base_url``, ``credential_store``,
``credential_kind``) are written and removed in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from leadctl.config.credentials import delete_credential, save_credential
from leadctl.config.settings import Config, update_config


def save_profile_credential(
    env: Mapping[str, str],
    *,
    profile: str,
    value: str,
    kind: str | None,
    base_url: str,
    store: str,
    make_current: bool = False,
) -> str:
    """Store ``value`` as ``profile``'s credential (``store`` is "keyring" or "file") and
    record it in the config, creating the profile if needed; returns where the secret went.
    ``kind`` None: nothing says what it is (sent as a bearer credential, the service decides).

    ``make_current`` makes the profile the current one when there is none yet.
    """

    # The secret first: a config that names a store holding nothing would be worse than a
    # stored secret the config does not mention yet.
    where = save_credential(env=env, profile=profile, value=value, insecure=store == "file")

    def remember(config: Config) -> None:
        values = config.profiles.setdefault(profile, {})
        values["base_url"] = base_url
        values["credential_store"] = store
        if kind is None:
            values.pop("credential_kind", None)  # the kind is read from the value on use
        else:
            values["credential_kind"] = kind
        if make_current and config.current_profile is None:
            config.current_profile = profile

    update_config(env, remember)
    return where


def forget_profile_credential(
    env: Mapping[str, str], *, profile: str, values: Mapping[str, Any] | None
) -> bool:
    """Delete ``profile``'s stored credential and the config's record of it; returns whether
    a stored credential was removed.

    ``values`` are the profile's settings, None when it is not configured: then the
    config is left as it is (not even created).
    """

    removed = delete_credential(env=env, profile=profile, profile_settings=values or {})

    def forget(config: Config) -> None:
        entry = config.profiles.get(profile)
        if entry is not None:
            entry.pop("credential_store", None)
            entry.pop("credential_kind", None)

    if values is not None:
        update_config(env, forget)
    return removed

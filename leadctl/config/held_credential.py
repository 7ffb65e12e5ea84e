"""The credential one invocation sends: looked up once, kept fresh before it expires, renewed
once after the service rejects it.

Senders on several threads (``leads import``) share one :class:`HeldCredential`, so a
renewal happens once, under its lock, not once a thread. Where a credential comes from (the
lookup order of cli.md) and how it is renewed (an OAuth refresh) are handed in as callables:
the client gets :meth:`HeldCredential.current` and :meth:`HeldCredential.after_rejection`,
the two callables it already accepts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.credentials import lookup_credential, with_contract_prefixes

if TYPE_CHECKING:
    from leadctl.config.credentials import Credential

# Renews a credential: with force=True even when it is not expiring (after a 401).
Renew = Callable[["Credential", bool], "Credential"]


class HeldCredential:
    def __init__(
        self,
        *,
        look_up: Callable[[], Credential | None],
        renew: Renew,
        now: Callable[[], float],
        keep_fresh: bool = True,
    ) -> None:
        self._look_up = look_up
        self._renew = renew
        self._now = now
        # False under --dry-run: nothing is sent, so nothing is refreshed (or saved).
        self._keep_fresh = keep_fresh
        self._found: Credential | None = None
        self._looked_up = False
        self._renewing = threading.Lock()
        self._renewed_after_rejection = False

    def current(self) -> Credential | None:
        """The credential to send now, or None when there is none."""
        if not self._looked_up:
            self._found = self._look_up()
            self._looked_up = True
        found = self._found
        if found is not None and found.oauth is not None and self._keep_fresh:
            # Every use, not only the first: an import or --all can outlive a token.
            found = self._kept_fresh(found)
        return found

    def _kept_fresh(self, held: Credential) -> Credential:
        assert held.oauth is not None
        if not held.oauth.expiring(self._now()):
            return held
        with self._renewing:
            # Another thread may have renewed it while this one waited.
            current = self._found
            assert current is not None and current.oauth is not None
            if current.oauth.expiring(self._now()):
                current = self._renew(current, False)
                self._found = current
        return current

    def looked_up(self) -> Credential | None:
        """The credential if it was already looked up; never looks it up (reporting an
        error must not reach the keyring)."""
        return self._found

    def after_rejection(self, rejected: Credential) -> Credential | None:
        """After a 401 invalid_token: the OAuth credential renewed, once per invocation;
        None when it is not an OAuth token or was already renewed."""
        if rejected.oauth is None:
            return None
        with self._renewing:
            if self._renewed_after_rejection:
                return None
            self._renewed_after_rejection = True
            renewed = self._renew(rejected, True)
            self._found = renewed
        return renewed


def resolve_credential(
    *,
    env: Mapping[str, str],
    profile: str,
    profile_values: Mapping[str, Any],
    source_key_prefixes: Callable[[], Iterable[str]],
) -> Credential | None:
    """A profile's credential by the lookup order of cli.md, recognised as a source key by
    the active contract's prefixes (read only for a value nothing else recognised)."""

    found = lookup_credential(env=env, profile=profile, profile_settings=profile_values)
    if found is None or found.recognised:
        return found
    return with_contract_prefixes(found, source_key_prefixes())

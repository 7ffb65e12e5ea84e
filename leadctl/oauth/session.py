"""Keeping an OAuth sign-in usable: refresh before expiry or after a 401, one process at a
time per profile, the rotated refresh token saved atomically; revocation at logout.

Two leadctl processes that both find the token expiring take the profile's refresh lock in
turn; the second re-reads the store and uses the token the first one obtained, so a
rotating server never sees a refresh token twice (which would make it revoke the family).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from leadctl.config.credentials import oauth_credential, save_credential, stored_credential
from leadctl.config.dirs import config_dir
from leadctl.config.private_files import ensure_private_dir
from leadctl.config.request_limits import DEFAULT_TIMEOUT
from leadctl.errors import LeadctlError, NotAuthenticated
from leadctl.http.client import tls_verification
from leadctl.oauth.errors import oauth_error_code, refused, transport_failure
from leadctl.oauth.http import HttpSettings, oauth_client

if TYPE_CHECKING:
    from leadctl.config.credentials import Credential
    from leadctl.config.tokens import TokenSet
    from leadctl.oauth.http import HttpSettings

LOCK_TIMEOUT = 30.0


class SignedInProfile:
    """What refreshing or revoking a profile's OAuth tokens needs: the profile and its
    settings, the environment (where its store and refresh lock are), the clock, and how to
    reach its authorization server (``http``, built when first called: it may load a CA
    bundle)."""

    def __init__(
        self,
        *,
        profile: str,
        values: Mapping[str, Any],
        env: Mapping[str, str],
        now: Callable[[], float],
        http: Callable[[], HttpSettings],
    ) -> None:
        self.profile = profile
        self.values = values
        self.env = env
        self.now = now
        self.http = http


def http_settings(
    values: Mapping[str, Any],
    *,
    env: Mapping[str, str],
    timeout: float | None,
    transport: Any,
    trace: Callable[[str], None] | None,
) -> HttpSettings:
    """How to reach a profile's authorization server: its settings ``values`` (timeout,
    ca_bundle), unless --timeout (``timeout``) says otherwise."""

    return HttpSettings(
        timeout=timeout or float(values.get("timeout", DEFAULT_TIMEOUT)),
        verify=tls_verification(values.get("ca_bundle"), env),
        transport=transport,
        trace=trace,
    )


def relogin_hint(profile: str) -> str:
    flag = "" if profile == "default" else f" -p {profile}"
    return f"log in again: leadctl{flag} auth login --device (or --web)"


@contextlib.contextmanager
def refresh_lock(env: Mapping[str, str], profile: str) -> Iterator[None]:
    from filelock import FileLock, Timeout

    directory = config_dir(env) / "locks"
    ensure_private_dir(config_dir(env))
    ensure_private_dir(directory)
    lock = FileLock(str(directory / f"oauth-{profile}.lock"), timeout=LOCK_TIMEOUT, mode=0o600)
    try:
        with lock:
            yield
    except Timeout:
        raise LeadctlError(
            f"another leadctl process has been refreshing profile {profile}'s token for "
            f"{LOCK_TIMEOUT:g} s",
            hint="try again; if no leadctl is running, remove " + str(directory),
        ) from None


def refresh(signed_in: SignedInProfile, credential: Credential, *, force: bool) -> Credential:
    """A refreshed credential, saved; another process's fresh token when it beat us to it.

    ``force`` (``auth refresh``, a 401) refreshes even when the token is not expiring,
    unless another process already replaced the token we hold.
    """
    profile, env, now = signed_in.profile, signed_in.env, signed_in.now
    held = credential.oauth
    if held is None:
        raise NotAuthenticated(
            f"profile {profile!r} does not hold an OAuth sign-in; only tokens from "
            "`auth login --device` or `--web` can be refreshed"
        )
    with refresh_lock(env, profile):
        current = stored_credential(env=env, profile=profile, profile_settings=signed_in.values)
        if current is None or current.oauth is None:
            raise NotAuthenticated(
                f"profile {profile!r} was logged out meanwhile", hint=relogin_hint(profile)
            )
        stored = current.oauth
        replaced = stored.access_token != held.access_token
        if replaced and not stored.expired(now()):
            return current  # another process refreshed while we waited
        if not force and not stored.expiring(now()):
            return current
        renewed = _refresh_grant(signed_in, stored)
        _save(signed_in, renewed)
    return oauth_credential(renewed, current.origin)


def _refresh_grant(signed_in: SignedInProfile, tokens: TokenSet) -> TokenSet:

    profile = signed_in.profile
    if tokens.refresh_token is None:
        raise NotAuthenticated(
            "the access token expired and the authorization server gave no refresh token",
            hint=relogin_hint(profile),
        )
    client = oauth_client(
        signed_in.http(), client_id=tokens.client_id, client_secret=tokens.client_secret
    )
    try:
        answer = client.refresh_token(tokens.token_endpoint, refresh_token=tokens.refresh_token)
        return tokens.renewed(dict(answer), signed_in.now())
    except Exception as error:
        oauth = oauth_error_code(error)
        if oauth is not None:
            raise refused(
                "refreshing the OAuth token", *oauth, hint=relogin_hint(profile)
            ) from None
        if isinstance(error, KeyError):
            raise NotAuthenticated(
                "the refresh answer has no access_token", hint=relogin_hint(profile)
            ) from None
        failure = transport_failure(error, "refreshing the OAuth token")
        if failure is None:
            raise
        raise failure from None
    finally:
        client.close()


def _save(signed_in: SignedInProfile, tokens: TokenSet) -> None:
    save_credential(
        env=signed_in.env,
        profile=signed_in.profile,
        value=tokens.to_stored(),
        insecure=signed_in.values.get("credential_store") == "file",
    )


def revoke(signed_in: SignedInProfile, tokens: TokenSet) -> str:
    """Revoke the refresh token (else the access token) where the server offers RFC 7009
    revocation; what happened, for the user. Never raises: logging out must not fail
    because the server is away."""

    if tokens.revocation_endpoint is None:
        return "the authorization server offers no revocation; the tokens were deleted here"
    client = oauth_client(
        signed_in.http(), client_id=tokens.client_id, client_secret=tokens.client_secret
    )
    token, hint = (
        (tokens.refresh_token, "refresh_token")
        if tokens.refresh_token
        else (tokens.access_token, "access_token")
    )
    try:
        response = client.revoke_token(
            tokens.revocation_endpoint, token=token, token_type_hint=hint
        )
    except Exception as error:
        return f"could not revoke the {hint.replace('_', ' ')} ({type(error).__name__})"
    finally:
        client.close()
    if response.status_code >= 400:
        return f"the authorization server refused to revoke it ({response.status_code})"
    return f"revoked the {hint.replace('_', ' ')} at the authorization server"

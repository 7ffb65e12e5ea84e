"""``auth login --device`` / ``--web``: discover the server, get a client id, run the grant,
return the token set (the command checks it with one read and saves it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.config.tokens import TokenSet, expiry, id_token_identity
from leadctl.errors import NotAuthenticated, UsageError
from leadctl.oauth.browser import LoopbackReceiver, authorize_in_browser, open_in_browser
from leadctl.oauth.device import poll_for_token, request_device_code
from leadctl.oauth.discovery import discover
from leadctl.oauth.errors import oauth_error_code, refused, transport_failure
from leadctl.oauth.http import oauth_client, plain_client
from leadctl.oauth.registration import no_client_id, register
from leadctl.oauth.session import relogin_hint

if TYPE_CHECKING:
    from leadctl.clock import Clock
    from leadctl.config.tokens import TokenSet
    from leadctl.iostreams import IOStreams
    from leadctl.oauth.discovery import ServerMetadata
    from leadctl.oauth.http import HttpSettings

DEFAULT_SCOPES = ("openid", "offline_access")


@dataclass(frozen=True)
class LoginRequest:
    base_url: str
    profile: str
    device: bool  # else the browser
    client_id: str | None
    scope: str | None
    open_browser: bool


def default_scope(metadata: ServerMetadata) -> str | None:
    """openid offline_access, as far as the server lists them (nothing when it lists none)."""
    listed = metadata.scopes_supported or ()
    chosen = [scope for scope in DEFAULT_SCOPES if scope in listed]
    return " ".join(chosen) or None


def sign_in(request: LoginRequest, *, http: HttpSettings, ios: IOStreams, clock: Clock) -> TokenSet:
    """The token set of a completed grant; ``http`` says how to reach the authorization
    server, ``ios`` shows what the user must do, ``clock`` times the polling and expiry."""
    hint = relogin_hint(request.profile)
    probe = plain_client(http)
    try:
        metadata = discover(probe, request.base_url)
        _require_grant(metadata, device=request.device)
        scope = request.scope or default_scope(metadata)
        receiver = None if request.device else LoopbackReceiver()
        client_id, client_secret = request.client_id, None
        if client_id is None:
            if metadata.registration_endpoint is None:
                raise no_client_id(metadata.issuer)
            registered = register(
                probe,
                metadata.registration_endpoint,
                redirect_uri=receiver.redirect_uri if receiver is not None else None,
                scope=scope,
            )
            client_id, client_secret = registered.client_id, registered.client_secret
            ios.info(f"registered leadctl with {metadata.issuer} as client {client_id}")
    finally:
        probe.close()
    client = oauth_client(
        http,
        client_id=client_id,
        client_secret=client_secret,
        scope=scope,
        code_challenge_method="S256",
    )
    try:
        answer = _run_grant(ios, clock, client, metadata, receiver, request, scope, hint)
    finally:
        client.close()
    access = answer.get("access_token")
    if not isinstance(access, str) or not access:
        raise NotAuthenticated("the token answer has no access_token", hint=hint)
    refresh = answer.get("refresh_token")
    granted = answer.get("scope")
    account, organization = id_token_identity(answer)
    return TokenSet(
        access_token=access,
        token_endpoint=metadata.token_endpoint,
        client_id=client_id,
        refresh_token=refresh if isinstance(refresh, str) and refresh else None,
        expires_at=expiry(answer, clock.now().timestamp()),
        scope=granted if isinstance(granted, str) and granted else scope,
        issuer=metadata.issuer,
        revocation_endpoint=metadata.revocation_endpoint,
        client_secret=client_secret,
        account=account,
        organization=organization,
    )


def _require_grant(metadata: ServerMetadata, *, device: bool) -> None:

    if device and metadata.device_authorization_endpoint is None:
        raise UsageError(
            f"the authorization server {metadata.issuer} offers no device authorization "
            "(no device_authorization_endpoint)",
            hint="sign in with the browser instead: --web",
        )
    if not device and metadata.authorization_endpoint is None:
        raise UsageError(
            f"the authorization server {metadata.issuer} has no authorization_endpoint",
            hint="sign in with a device code instead: --device",
        )
    if (
        not device
        and metadata.code_challenge_methods
        and ("S256" not in metadata.code_challenge_methods)
    ):
        raise UsageError(
            f"the authorization server {metadata.issuer} does not support PKCE with S256",
            hint="sign in with a device code instead: --device",
        )


def _run_grant(
    ios: IOStreams,
    clock: Clock,
    client: Any,
    metadata: ServerMetadata,
    receiver: Any,
    request: LoginRequest,
    scope: str | None,
    hint: str,
) -> dict[str, Any]:

    def show(text: str) -> None:
        # The user needs this to sign in: shown even under -q.
        ios.say(text)

    try:
        if request.device:
            assert metadata.device_authorization_endpoint is not None
            code = request_device_code(client, metadata.device_authorization_endpoint, scope=scope)
            show(f"First copy your one-time code: {code.user_code}")
            show(f"Then open {code.verification_uri} and enter it to approve leadctl.")
            if request.open_browser:
                open_in_browser(code.verification_uri_complete or code.verification_uri)
            show("Waiting for the approval (Ctrl-C to stop)…")
            return poll_for_token(
                client, metadata.token_endpoint, code, sleep=clock.sleep, relogin_hint=hint
            )
        assert metadata.authorization_endpoint is not None
        with receiver:
            return authorize_in_browser(
                client,
                metadata.authorization_endpoint,
                metadata.token_endpoint,
                receiver,
                show=show,
                open_browser=request.open_browser,
                relogin_hint=hint,
            )
    except Exception as error:
        oauth = oauth_error_code(error)
        if oauth is not None:
            raise refused("the sign-in", *oauth, hint=hint) from None
        failure = transport_failure(error, "signing in")
        if failure is None:
            raise
        raise failure from None

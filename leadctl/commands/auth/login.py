"""``leadctl auth login``: store a credential for a profile, checked before saving."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.auth._shared import timestamp
from leadctl.config.credentials import (
    CredentialKind,
    check_store,
    detect_kind,
    make_credential,
    oauth_credential,
)
from leadctl.config.profiles import save_profile_credential
from leadctl.config.request_limits import DEFAULT_TIMEOUT
from leadctl.config.settings import validate_profile_name
from leadctl.config.urls import validate_base_url
from leadctl.contract.operations import curated
from leadctl.contract.shapes import require_objects
from leadctl.contract.store import active_index, key_for_base_url
from leadctl.errors import ApiError, Forbidden, NotAuthenticated, UsageError
from leadctl.http.client import Client, RetryPolicy, tls_verification
from leadctl.oauth.browser import desktop_browser
from leadctl.oauth.login import LoginRequest, sign_in
from leadctl.verbkit.contract_discovery import pull_after_login

if TYPE_CHECKING:
    from leadctl.config.credentials import Credential, CredentialKind
    from leadctl.context import Context

EPILOG = (
    "Examples:\n\n"
    "  leadctl auth login --base-url https://api.example.com\n\n"
    "  leadctl auth login --device\n\n"
    "  leadctl -p me auth login --web --base-url https://api.example.com\n\n"
    "  vault read -field=key secret/leadctl | leadctl auth login --with-token\n\n"
    "  leadctl -p intake auth login --kind source --with-token < key.txt"
)


class Kind(str, Enum):
    user = "user"
    org = "org"
    source = "source"


@dataclass(frozen=True)
class Options:
    """The flags of `auth login`; the secret itself is never one of them (prompt or stdin)."""

    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            metavar="URL",
            help="The service's base URL, saved in the profile (asked for on a terminal "
            "when the profile has none).",
        ),
    ] = None
    # Read the credential from stdin instead of a hidden prompt.
    with_token: Annotated[
        bool, typer.Option("--with-token", help="Read the credential from stdin.")
    ] = False
    kind: Annotated[
        Kind | None,
        typer.Option(
            "--kind",
            help="What the credential is: user, org or source, recorded as you say. Omitted: "
            "sk_... is an organization key, a JWT a user token, a prefix the service's "
            "contract gives source keys a source key; anything else is sent as a bearer "
            "credential and the service decides.",
        ),
    ] = None
    insecure_storage: Annotated[
        bool,
        typer.Option(
            "--insecure-storage",
            help="Store in a 0600 file under the config dir instead of the OS keyring.",
        ),
    ] = False
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Save without checking with the service.")
    ] = False
    device: Annotated[
        bool,
        typer.Option(
            "--device",
            help="Sign in with the service's OAuth server: a one-time code to enter in a "
            "browser on any device (RFC 8628); works on servers without a browser.",
        ),
    ] = False
    web: Annotated[
        bool,
        typer.Option(
            "--web",
            help="Sign in with the service's OAuth server in a browser on this machine "
            "(authorization code with PKCE, loopback redirect).",
        ),
    ] = False
    client_id: Annotated[
        str | None,
        typer.Option(
            "--client-id",
            metavar="ID",
            help="OAuth client id (default: the profile's oauth_client_id, else dynamic "
            "registration where the server offers it).",
        ),
    ] = None
    # As typed: space- or comma-separated.
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            metavar="SCOPES",
            help="OAuth scopes, space-separated (default: the profile's oauth_scopes, else "
            "openid offline_access where the server lists them).",
        ),
    ] = None
    open_browser: Annotated[
        bool,
        typer.Option("--open", help="With --device: open the verification page in a browser."),
    ] = False
    no_contract: Annotated[
        bool, typer.Option("--no-contract", help="Do not pull the service's contract.")
    ] = False


def _read_token(ctx: Context, with_token: bool) -> str:
    if with_token:
        token = ctx.ios.stdin.read()
    else:
        token = ctx.ios.prompt_secret("Paste the credential (input hidden): ")
    token = token.strip()
    if not token:
        raise UsageError("no credential given")
    if any(c.isspace() for c in token):
        raise UsageError("the credential contains whitespace: paste exactly one token")
    if not token.isascii() or not token.isprintable():
        # An HTTP header carries ASCII only; the value is not echoed.
        raise UsageError("the credential contains non-ASCII or control characters")
    return token


def _kind_of(ctx: Context, url: str, token: str, declared: Kind | None) -> CredentialKind:
    """What the user says the credential is, else what its shape says (``sk_``, a JWT, a
    source-key prefix the contract of the service at ``url`` names), else unknown."""

    if declared is not None:
        return CredentialKind(declared.value)
    # The profile may not exist yet: its service's contract is found by the URL.
    active = active_index(ctx.env, lambda: key_for_base_url(url))
    return detect_kind(token, active.source_key_prefixes)


def _verify(ctx: Context, base_url: str, credential: Credential) -> None:
    """One cheap read with the new credential, before anything is saved."""

    # Not ctx.settings: the profile this login creates does not exist yet, and settings
    # refuses a named profile that is not configured.
    values = ctx.config.profiles.get(ctx.profile_name, {})
    timeout = ctx.options.timeout or float(values.get("timeout", DEFAULT_TIMEOUT))
    client = Client(
        base_url=base_url,
        credential=lambda: credential,
        timeout=timeout,
        verify=tls_verification(values.get("ca_bundle"), ctx.env),
        policy=RetryPolicy(max_retries=ctx.options.max_retries),
        sleep=ctx.clock.sleep,
        notify=ctx.ios.info,
        transport=ctx.transport,
    )
    try:
        answer = client.call_json(curated(ctx, "GET", "/lead-statuses"))
        # A 200 that is not the statuses (a captive portal, a proxy) proved nothing.
        require_objects(answer, what="lead statuses")
    except ApiError as error:
        if error.status not in (401, 403):
            raise
        hint = None
        if not credential.recognised:
            hint = (
                "it is neither an sk_ key nor a JWT: if it is a lead source's key, log in "
                "with --kind source (a source key is saved unchecked)"
            )
        if error.status == 401:
            raise NotAuthenticated(
                "the service rejected this credential (401); nothing was saved", hint=hint
            ) from None
        if hint is None:
            raise
        raise Forbidden(
            "the service refused this credential (403); nothing was saved", hint=hint
        ) from None
    finally:
        client.close()


def run(opts: Options, ctx: Context) -> None:
    """Check the flags, get the credential (pasted or from an OAuth sign-in), verify it
    with one read unless told not to, save it, and pull the contract."""

    profile = validate_profile_name(ctx.profile_name)
    existing = ctx.config.profiles.get(profile, {})
    oauth = opts.device or opts.web
    if opts.device and opts.web:
        raise UsageError("--device and --web are two ways to sign in: choose one")
    if oauth and (opts.with_token or opts.kind is not None):
        raise UsageError("--with-token and --kind are for pasted keys, not --device/--web")
    if not oauth and (opts.client_id or opts.scope or opts.open_browser):
        raise UsageError("--client-id, --scope and --open go with --device or --web")
    url = opts.base_url or ctx.options.base_url or existing.get("base_url")
    if url is None:
        url = _ask_base_url(ctx, profile)
    url = validate_base_url(url, allow_insecure_http=ctx.options.allow_insecure_http)
    # Before the secret is typed: a keyring that cannot take it is found now, not after.
    check_store(env=ctx.env, profile=profile, insecure=opts.insecure_storage)
    if oauth:
        scope = opts.scope
        credential = _oauth_login(
            ctx,
            url,
            device=opts.device,
            client_id=opts.client_id or existing.get("oauth_client_id"),
            scope=" ".join(scope.replace(",", " ").split()) if scope else None,
            open_browser=opts.open_browser or (opts.web and _at_a_desktop(ctx)),
            insecure_storage=opts.insecure_storage,
            no_verify=opts.no_verify,
        )
    else:
        token = _read_token(ctx, opts.with_token)
        credential_kind = _kind_of(ctx, url, token, opts.kind)
        credential = make_credential(token, credential_kind, "login", declared=True)
        if credential_kind is CredentialKind.SOURCE:
            ctx.ios.info("source keys cannot be checked without creating a lead: saved unchecked")
        elif not opts.no_verify:
            _verify(ctx, url, credential)
        recorded = None if credential_kind is CredentialKind.UNKNOWN else credential_kind.value
        _save_login(ctx, url, token, recorded, insecure_storage=opts.insecure_storage)
    if not opts.no_contract and not opts.no_verify and credential.kind is not CredentialKind.SOURCE:
        pull_after_login(ctx, url, credential)


def _ask_base_url(ctx: Context, profile: str) -> str:
    """The service's base URL, asked on a terminal (as gh asks for the host); a script
    must name it."""
    if not ctx.ios.can_prompt:
        raise UsageError(
            f"profile {profile!r} has no base URL",
            hint="pass --base-url https://... (or set LEADCTL_BASE_URL)",
        )
    while True:
        answer = ctx.ios.prompt_line("Base URL of the service (https://...): ")
        if answer:
            return answer


def _at_a_desktop(ctx: Context) -> bool:

    return ctx.ios.stderr_is_tty and desktop_browser(ctx.env)


def _oauth_login(
    ctx: Context,
    url: str,
    *,
    device: bool,
    client_id: str | None,
    scope: str | None,
    open_browser: bool,
    insecure_storage: bool,
    no_verify: bool,
) -> Credential:

    profile = ctx.profile_name
    tokens = sign_in(
        LoginRequest(
            base_url=url,
            profile=profile,
            device=device,
            client_id=client_id,
            scope=scope or ctx.config.profiles.get(profile, {}).get("oauth_scopes"),
            open_browser=open_browser,
        ),
        http=ctx.signed_in_profile(as_configured=True).http(),
        ios=ctx.ios,
        clock=ctx.clock,
    )
    credential = oauth_credential(tokens, "login")
    if not no_verify:
        _verify(ctx, url, credential)
    _save_login(ctx, url, tokens.to_stored(), "user", insecure_storage=insecure_storage)
    if tokens.expires_at is not None:
        ctx.ios.info(
            f"the access token expires at {timestamp(tokens.expires_at)}"
            + ("; it is refreshed automatically" if tokens.refresh_token else "")
        )
    return credential


def _save_login(
    ctx: Context, url: str, value: str, kind_value: str | None, *, insecure_storage: bool
) -> None:

    profile = ctx.profile_name
    where = save_profile_credential(
        ctx.env,
        profile=profile,
        value=value,
        kind=kind_value,
        base_url=url,
        store="file" if insecure_storage else "keyring",
        make_current=True,
    )
    if insecure_storage:
        # Said here and by `auth status`, never on each use (cron mail).
        ctx.ios.warn(f"the credential is stored unencrypted in {where}")
    kind_text = f"{kind_value} credential" if kind_value else "credential of no recognised kind"
    ctx.ios.info(f"logged in: profile {profile}, {kind_text}, stored in {where}")


HELP = """Store a credential for the profile (-p), checked with one read before saving.

    A pasted credential comes from a hidden prompt, or from stdin with --with-token; it is
    never accepted as an argument. Organization keys (sk_...) and user tokens (JWT) are
    checked with GET /lead-statuses; a source key cannot be checked without creating a
    lead, so it is saved unchecked.

    --device and --web sign a person in with the OAuth authorization server the service
    advertises (RFC 9728 metadata at BASE_URL/.well-known/oauth-protected-resource). The
    access token, refresh token and expiry are stored together like any credential, and
    the access token is refreshed before it expires and once after a 401. Where the
    keyring is unusable, this says so before anything is asked for.
    """

command = verb_command(Options, run, help=HELP)

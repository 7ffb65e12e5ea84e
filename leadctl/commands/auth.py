"""``leadctl auth``: store, inspect and remove a profile's credential."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.commands._common import get_context
from leadctl.errors import ApiError, NotAuthenticated, UsageError

if TYPE_CHECKING:
    from leadctl.context import Context
    from leadctl.credentials import Credential, CredentialKind

app = typer.Typer(
    help="Log in, show and remove the credential of a profile.",
    no_args_is_help=True,
)


class Kind(str, Enum):
    user = "user"
    org = "org"
    source = "source"


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


def _kind_of(token: str, declared: Kind | None) -> CredentialKind:
    from leadctl.credentials import CredentialKind, detect_kind

    detected = detect_kind(token)
    if declared is None:
        return detected
    wanted = CredentialKind(declared.value)
    if wanted is not CredentialKind.SOURCE and wanted is not detected:
        shape = {"org": "an organization key starting with sk_", "user": "a JWT user token"}
        raise UsageError(f"--kind {declared.value} expects {shape[declared.value]}")
    return wanted


def _verify(ctx: Context, base_url: str, credential: Credential) -> None:
    """One cheap read with the new credential, before anything is saved."""
    from leadctl.client import Client, RetryPolicy, tls_verification
    from leadctl.context import DEFAULT_TIMEOUT
    from leadctl.operations import curated
    from leadctl.shapes import require_objects

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
        if error.status == 401:
            raise NotAuthenticated(
                "the service rejected this credential (401); nothing was saved"
            ) from None
        raise
    finally:
        client.close()


@app.command(
    epilog="Examples:\n\n"
    "  leadctl auth login --base-url https://api.example.com\n\n"
    "  leadctl auth login --device\n\n"
    "  leadctl -p me auth login --web --base-url https://api.example.com\n\n"
    "  vault read -field=key secret/leadctl | leadctl auth login --with-token\n\n"
    "  leadctl -p intake auth login --kind source --with-token < key.txt",
)
def login(
    typer_ctx: typer.Context,
    base_url: Annotated[
        str | None, typer.Option("--base-url", metavar="URL", help="Save this base URL too.")
    ] = None,
    with_token: Annotated[
        bool, typer.Option("--with-token", help="Read the credential from stdin.")
    ] = False,
    kind: Annotated[
        Kind | None,
        typer.Option("--kind", help="user, org or source (detected when omitted)."),
    ] = None,
    insecure_storage: Annotated[
        bool,
        typer.Option(
            "--insecure-storage",
            help="Store in a 0600 file under the config dir instead of the OS keyring.",
        ),
    ] = False,
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Save without checking with the service.")
    ] = False,
    device: Annotated[
        bool,
        typer.Option(
            "--device",
            help="Sign in with the service's OAuth server: a one-time code to enter in a "
            "browser on any device (RFC 8628); works on servers without a browser.",
        ),
    ] = False,
    web: Annotated[
        bool,
        typer.Option(
            "--web",
            help="Sign in with the service's OAuth server in a browser on this machine "
            "(authorization code with PKCE, loopback redirect).",
        ),
    ] = False,
    client_id: Annotated[
        str | None,
        typer.Option(
            "--client-id",
            metavar="ID",
            help="OAuth client id (default: the profile's oauth_client_id, else dynamic "
            "registration where the server offers it).",
        ),
    ] = None,
    scope: Annotated[
        str | None,
        typer.Option(
            "--scope",
            metavar="SCOPES",
            help="OAuth scopes, space-separated (default: the profile's oauth_scopes, else "
            "openid offline_access where the server lists them).",
        ),
    ] = None,
    open_browser: Annotated[
        bool,
        typer.Option("--open", help="With --device: open the verification page in a browser."),
    ] = False,
    no_contract: Annotated[
        bool, typer.Option("--no-contract", help="Do not pull the service's contract.")
    ] = False,
) -> None:
    """Store a credential for the profile (-p), checked with one read before saving.

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
    from leadctl.config import validate_profile_name
    from leadctl.credentials import CredentialKind, check_store, make_credential
    from leadctl.urls import validate_base_url

    ctx = get_context(typer_ctx)
    profile = validate_profile_name(ctx.profile_name)
    existing = ctx.config.profiles.get(profile, {})
    oauth = device or web
    if device and web:
        raise UsageError("--device and --web are two ways to sign in: choose one")
    if oauth and (with_token or kind is not None):
        raise UsageError("--with-token and --kind are for pasted keys, not --device/--web")
    if not oauth and (client_id or scope or open_browser):
        raise UsageError("--client-id, --scope and --open go with --device or --web")
    url = base_url or ctx.options.base_url or existing.get("base_url")
    if url is None:
        raise UsageError(f"profile {profile!r} has no base URL", hint="pass --base-url https://...")
    url = validate_base_url(url, allow_insecure_http=ctx.options.allow_insecure_http)
    # Before the secret is typed: a keyring that cannot take it is found now, not after.
    check_store(env=ctx.env, profile=profile, insecure=insecure_storage)
    if oauth:
        credential = _oauth_login(
            ctx,
            url,
            device=device,
            client_id=client_id or existing.get("oauth_client_id"),
            scope=" ".join(scope.replace(",", " ").split()) if scope else None,
            open_browser=open_browser or (web and _at_a_desktop(ctx)),
            insecure_storage=insecure_storage,
            no_verify=no_verify,
        )
    else:
        token = _read_token(ctx, with_token)
        credential_kind = _kind_of(token, kind)
        credential = make_credential(token, credential_kind, "login", declared=True)
        if credential_kind is CredentialKind.SOURCE:
            ctx.ios.info("source keys cannot be checked without creating a lead: saved unchecked")
        elif not no_verify:
            _verify(ctx, url, credential)
        _save_login(ctx, url, token, credential_kind.value, insecure_storage=insecure_storage)
    if not no_contract and not no_verify and credential.kind is not CredentialKind.SOURCE:
        from leadctl.contract.discovery import pull_after_login

        pull_after_login(ctx, url, credential)


def _at_a_desktop(ctx: Context) -> bool:
    from leadctl.oauth.browser import desktop_browser

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
    from leadctl.credentials import oauth_credential
    from leadctl.oauth.login import LoginRequest, sign_in

    profile = ctx.profile_name
    tokens = sign_in(
        ctx,
        LoginRequest(
            base_url=url,
            profile=profile,
            device=device,
            client_id=client_id,
            scope=scope or ctx.config.profiles.get(profile, {}).get("oauth_scopes"),
            open_browser=open_browser,
        ),
    )
    credential = oauth_credential(tokens, "login")
    if not no_verify:
        _verify(ctx, url, credential)
    _save_login(ctx, url, tokens.to_stored(), "user", insecure_storage=insecure_storage)
    if tokens.expires_at is not None:
        ctx.ios.info(
            f"the access token expires at {_timestamp(tokens.expires_at)}"
            + ("; it is refreshed automatically" if tokens.refresh_token else "")
        )
    return credential


def _save_login(
    ctx: Context, url: str, value: str, kind_value: str, *, insecure_storage: bool
) -> None:
    from leadctl.config import Config, update_config
    from leadctl.credentials import save_credential

    profile = ctx.profile_name
    where = save_credential(env=ctx.env, profile=profile, value=value, insecure=insecure_storage)

    def remember(config: Config) -> None:
        values = config.profiles.setdefault(profile, {})
        values["base_url"] = url
        values["credential_store"] = "file" if insecure_storage else "keyring"
        values["credential_kind"] = kind_value
        if config.current_profile is None:
            config.current_profile = profile

    update_config(ctx.env, remember)
    if insecure_storage:
        # Said once, here; later uses say it only without -q, and `auth status` shows it.
        ctx.ios.warn(f"the credential is stored unencrypted in {where}")
    ctx.ios.info(f"logged in: profile {profile}, {kind_value} credential, stored in {where}")


@app.command(
    epilog="Examples:\n\n"
    "  leadctl auth status\n\n"
    "  leadctl -p prod auth status -o json | jq -r .kind",
)
def status(typer_ctx: typer.Context) -> None:
    """Check the profile's credential with the service and show what it is.

    Shows the profile, base URL, credential kind, a masked preview, where it is stored,
    when it expires (user tokens) and whose it is: from the active contract's read of the
    current user where it has one, else from an OAuth sign-in's ID token.

    An organization key or user token is checked with one read (the current-user read,
    else GET /lead-statuses): exit 3 when the service refuses it, or when no credential
    is configured. A source key is never sent anywhere but lead
    intake, so it is shown unchecked; a value that is neither an sk_ key nor a JWT is
    shown as "unknown" unless the profile was saved with --kind source.
    """
    from leadctl.credentials import CredentialKind
    from leadctl.output import Column, emit_object

    ctx = get_context(typer_ctx)
    credential = ctx.credential()
    if credential is None:
        raise NotAuthenticated(
            f"no credential for profile {ctx.profile_name!r}",
            hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
        )
    base_url = ctx.base_url() if not ctx.settings.embedded_sandbox else "(embedded sandbox)"
    shown: dict[str, object] = {
        "profile": ctx.profile_name,
        "baseUrl": base_url,
        "kind": credential.kind.value if credential.recognised else "unknown",
        "preview": credential.preview(),
        "store": _store_text(ctx, credential),
        "checked": None,
        "expiresAt": _timestamp(credential.expires_at),
        "account": None,
        "organization": None,
    }
    if credential.kind is CredentialKind.SOURCE:
        shown["checked"] = (
            "no: a source key can only be checked by creating a lead"
            if credential.recognised
            else "no: not an organization key (sk_...) or a JWT; leadctl would send it "
            "only to lead intake, as a source key"
        )
    else:
        shown.update(_check_with_service(ctx, credential))
        # The check may have refreshed an OAuth token: show the one in use now.
        current = ctx.credential() or credential
        shown["expiresAt"] = _timestamp(current.expires_at)
        shown["preview"] = current.preview()
        if current.oauth is not None:
            # The contract had no current-user read: the sign-in's ID token says who.
            shown["account"] = shown["account"] or current.oauth.account
            shown["organization"] = shown["organization"] or current.oauth.organization
    emit_object(
        ctx,
        shown,
        columns=[
            Column("profile"),
            Column("baseUrl", "base URL"),
            Column("kind"),
            Column("preview"),
            Column("store"),
            Column("checked"),
            Column("expiresAt", "expires", kind="datetime"),
            Column("account"),
            Column("organization"),
        ],
    )


def _store_text(ctx: Context, credential: Credential) -> str:
    if ctx.settings.get("credential_store") == "file" and credential.origin.startswith("file "):
        return f"{credential.origin}, unencrypted (--insecure-storage)"
    return credential.origin


def _timestamp(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    from datetime import datetime, timezone

    moment = datetime.fromtimestamp(seconds, timezone.utc).replace(microsecond=0)
    return moment.isoformat().replace("+00:00", "Z")


def _check_with_service(ctx: Context, credential: Credential) -> dict[str, object]:
    """One read with the credential: the current-user read where the contract has one."""
    from leadctl.operations import Operation, active_index_of, curated
    from leadctl.whoami import current_user_operation, identity

    me = current_user_operation(active_index_of(ctx).index)
    op = (
        Operation.from_entry(me).with_overrides(ctx.settings)
        if me is not None
        else curated(ctx, "GET", "/lead-statuses")
    )
    try:
        answer = ctx.client().call_json(op)
    except ApiError as error:
        if error.status == 401:
            raise NotAuthenticated(
                f"the service refused the credential of profile {ctx.profile_name!r} (401)",
                hint=_login_hint(ctx),
            ) from None
        raise
    found: dict[str, object] = {"checked": f"yes ({op.method} {op.path})"}
    if me is not None:
        found.update(identity(answer))
    return found


def _login_hint(ctx: Context) -> str:
    if ctx.env.get("LEADCTL_TOKEN") or ctx.env.get("LEADCTL_TOKEN_FILE"):
        return "the credential comes from LEADCTL_TOKEN / LEADCTL_TOKEN_FILE: replace it"
    profile = "" if ctx.profile_name == "default" else f" -p {ctx.profile_name}"
    return f"log in again with `leadctl{profile} auth login`"


@app.command(
    epilog="Examples:\n\n  leadctl auth logout\n\n  leadctl -p intake auth logout",
)
def logout(typer_ctx: typer.Context) -> None:
    """Remove the profile's stored credential (keyring or file).

    An OAuth sign-in's refresh token is first revoked at the authorization server where it
    offers revocation (RFC 7009); the tokens are deleted here either way.
    """
    from leadctl.config import Config, update_config
    from leadctl.credentials import delete_credential, stored_credential
    from leadctl.errors import LeadctlError

    ctx = get_context(typer_ctx)
    profile = ctx.profile_name
    values = ctx.config.profiles.get(profile, {})
    try:
        held = stored_credential(env=ctx.env, profile=profile, profile_settings=values)
    except LeadctlError:
        held = None  # unreadable: deleting it is still what the user wants
    if held is not None and held.oauth is not None:
        from leadctl.oauth.session import revoke

        ctx.ios.info(revoke(ctx, held.oauth))
    removed = delete_credential(env=ctx.env, profile=profile, profile_settings=values)

    def forget(config: Config) -> None:
        entry = config.profiles.get(profile)
        if entry is not None:
            entry.pop("credential_store", None)
            entry.pop("credential_kind", None)

    if profile in ctx.config.profiles:
        update_config(ctx.env, forget)
    if removed:
        ctx.ios.info(f"logged out of profile {profile}")
    else:
        ctx.ios.info(f"profile {profile} had no stored credential")


@app.command(
    epilog="Examples:\n\n  leadctl auth refresh\n\n  leadctl -p me auth refresh",
)
def refresh(typer_ctx: typer.Context) -> None:
    """Refresh the profile's OAuth access token now (it is otherwise refreshed when it
    expires within 60 s, and once after a 401).

    Exit 3 when the authorization server refuses the refresh: log in again.
    """
    from leadctl.credentials import stored_credential
    from leadctl.oauth.session import refresh as refresh_tokens

    ctx = get_context(typer_ctx)
    held = stored_credential(
        env=ctx.env, profile=ctx.settings.profile, profile_settings=ctx.settings.profile_values
    )
    if held is None or held.oauth is None:
        raise UsageError(
            f"profile {ctx.profile_name!r} holds no OAuth sign-in to refresh",
            hint="sign in with `leadctl auth login --device` or `--web`",
        )
    renewed = refresh_tokens(ctx, held, force=True)
    when = _timestamp(renewed.expires_at)
    ctx.ios.info(
        f"refreshed the access token of profile {ctx.profile_name}"
        + (f"; it expires at {when}" if when else "")
    )


@app.command(
    epilog="Examples:\n\n"
    "  TOKEN=$(leadctl auth token)\n\n"
    "  LEADCTL_TOKEN=$(leadctl -p prod auth token) ./nightly-export.sh",
)
def token(typer_ctx: typer.Context) -> None:
    """Print the profile's credential, for scripts: TOKEN=$(leadctl auth token)."""
    ctx = get_context(typer_ctx)
    credential = ctx.require_credential()
    ctx.ios.stdout.write(credential.value + "\n")

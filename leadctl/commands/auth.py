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
) -> None:
    """Store a credential for the profile (-p), checked with one read before saving.

    The credential comes from a hidden prompt, or from stdin with --with-token; it is never
    accepted as an argument. Organization keys (sk_...) and user tokens (JWT) are checked
    with GET /lead-statuses; a source key cannot be checked without creating a lead, so it
    is saved unchecked.
    """
    from leadctl.config import update_config, validate_profile_name
    from leadctl.credentials import Credential, CredentialKind, save_credential
    from leadctl.urls import validate_base_url

    ctx = get_context(typer_ctx)
    profile = validate_profile_name(ctx.profile_name)
    existing = ctx.config.profiles.get(profile, {})
    url = base_url or ctx.options.base_url or existing.get("base_url")
    if url is None:
        raise UsageError(f"profile {profile!r} has no base URL", hint="pass --base-url https://...")
    url = validate_base_url(url, allow_insecure_http=ctx.options.allow_insecure_http)
    token = _read_token(ctx, with_token)
    credential_kind = _kind_of(token, kind)
    kind_value = credential_kind.value
    credential = Credential(token, credential_kind, "login")
    if credential_kind is CredentialKind.SOURCE:
        ctx.ios.info("source keys cannot be checked without creating a lead: saved unchecked")
    elif not no_verify:
        _verify(ctx, url, credential)
    where = save_credential(env=ctx.env, profile=profile, value=token, insecure=insecure_storage)

    def remember(config: object) -> None:
        from leadctl.config import Config

        assert isinstance(config, Config)
        values = config.profiles.setdefault(profile, {})
        values["base_url"] = url
        values["credential_store"] = "file" if insecure_storage else "keyring"
        values["credential_kind"] = kind_value
        if config.current_profile is None:
            config.current_profile = profile

    update_config(ctx.env, remember)
    if insecure_storage:
        ctx.ios.warn(f"the credential is stored unencrypted in {where}")
    ctx.ios.info(f"logged in: profile {profile}, {kind_value} credential, stored in {where}")


@app.command(
    epilog="Examples:\n\n"
    "  leadctl auth status\n\n"
    "  leadctl -p prod auth status -o json | jq -r .kind",
)
def status(typer_ctx: typer.Context) -> None:
    """Show the profile, base URL, credential kind, masked preview and store.

    Exits 3 when no credential is configured.
    """
    from leadctl.output import Column, emit_object

    ctx = get_context(typer_ctx)
    credential = ctx.credential()
    if credential is None:
        raise NotAuthenticated(
            f"no credential for profile {ctx.profile_name!r}",
            hint="run `leadctl auth login`, or set LEADCTL_TOKEN",
        )
    base_url = ctx.base_url() if not ctx.settings.embedded_sandbox else "(embedded sandbox)"
    emit_object(
        ctx,
        {
            "profile": ctx.profile_name,
            "baseUrl": base_url,
            "kind": credential.kind.value,
            "preview": credential.preview(),
            "store": credential.origin,
        },
        columns=[
            Column("profile"),
            Column("baseUrl", "base URL"),
            Column("kind"),
            Column("preview"),
            Column("store"),
        ],
    )


@app.command(
    epilog="Examples:\n\n  leadctl auth logout\n\n  leadctl -p intake auth logout",
)
def logout(typer_ctx: typer.Context) -> None:
    """Remove the profile's stored credential (keyring or file)."""
    from leadctl.config import Config, update_config
    from leadctl.credentials import delete_credential

    ctx = get_context(typer_ctx)
    profile = ctx.profile_name
    values = ctx.config.profiles.get(profile, {})
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
    epilog="Examples:\n\n"
    "  TOKEN=$(leadctl auth token)\n\n"
    "  LEADCTL_TOKEN=$(leadctl -p prod auth token) ./nightly-export.sh",
)
def token(typer_ctx: typer.Context) -> None:
    """Print the profile's credential, for scripts: TOKEN=$(leadctl auth token)."""
    ctx = get_context(typer_ctx)
    credential = ctx.require_credential()
    ctx.ios.stdout.write(credential.value + "\n")

"""``leadctl auth status``: check the profile's credential with the service, show what it is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from leadctl.commands._verb import verb_command
from leadctl.commands.auth._shared import timestamp
from leadctl.config.credentials import CredentialKind
from leadctl.contract.operations import Operation, active_index_of, curated
from leadctl.contract.whoami import current_user_operation, identity
from leadctl.errors import ApiError, NotAuthenticated
from leadctl.output import Column, emit_object

if TYPE_CHECKING:
    from leadctl.config.credentials import Credential
    from leadctl.context import Context

EPILOG = "Examples:\n\n  leadctl auth status\n\n  leadctl -p prod auth status -o json | jq -r .kind"


@dataclass(frozen=True)
class Options:
    """`auth status` takes only the global options."""


def run(opts: Options, ctx: Context) -> None:

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
        "kind": credential.kind.value,
        "preview": credential.preview(),
        "store": _store_text(ctx, credential),
        "checked": None,
        "expiresAt": timestamp(credential.expires_at),
        "account": None,
        "organization": None,
    }
    if _plain_file(ctx, credential):
        # Said here and at `auth login --insecure-storage`, never on each use (cron mail).
        ctx.ios.warn(f"the credential is stored unencrypted in {credential.origin}")
    if credential.kind is CredentialKind.SOURCE:
        shown["checked"] = "no: a source key can only be checked by creating a lead"
    else:
        shown.update(_check_with_service(ctx, credential))
        # The check may have refreshed an OAuth token: show the one in use now.
        current = ctx.credential() or credential
        shown["expiresAt"] = timestamp(current.expires_at)
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


def _plain_file(ctx: Context, credential: Credential) -> bool:
    return ctx.settings.get("credential_store") == "file" and credential.origin.startswith("file ")


def _store_text(ctx: Context, credential: Credential) -> str:
    if _plain_file(ctx, credential):
        return f"{credential.origin}, unencrypted (--insecure-storage)"
    return credential.origin


def _check_with_service(ctx: Context, credential: Credential) -> dict[str, object]:
    """One read with the credential: the current-user read where the contract has one."""

    me = current_user_operation(active_index_of(ctx).listings())
    op = (
        Operation.of(me).with_overrides(ctx.settings)
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


HELP = """Check the profile's credential with the service and show what it is.

    Shows the profile, base URL, credential kind, a masked preview, where it is stored,
    when it expires (user tokens) and whose it is: from the active contract's read of the
    current user where it has one, else from an OAuth sign-in's ID token.

    An organization key or user token is checked with one read (the current-user read,
    else GET /lead-statuses): exit 3 when the service refuses it, or when no credential
    is configured. A source key is never sent anywhere but lead intake, so it is shown
    unchecked. A value that is neither an sk_ key, a JWT, nor of a source-key prefix the
    service's contract names is shown as "unknown" and checked like a user token (log in
    with --kind to say what it is). A credential in a plain file (--insecure-storage) is
    named with a warning here, and nowhere else but at login.
    """

command = verb_command(Options, run, help=HELP)

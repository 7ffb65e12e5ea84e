"""Where a rotated intake key goes, and how it is never lost.

The service returns the new key exactly once, and the old key stops working at once.
These plain functions (no Typer) decide, before the request, where ``--save-profile`` will
put the key (:func:`profile_target`); after it, they decode the answer (keeping a
malformed body), store the key where asked (:func:`deliver`), keep it in a 0600 recovery
file when no store took it or printing failed, and turn what went wrong into the final
error (:func:`delivery_error`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from leadctl.config.credentials import check_store
from leadctl.config.profiles import save_profile_credential
from leadctl.config.secrets_out import silence_stdout, write_recovery_file
from leadctl.config.service_target import SANDBOX_PROFILE
from leadctl.config.settings import validate_profile_name
from leadctl.errors import BadResponse, KeyringUnavailable, LeadctlError, UsageError
from leadctl.util.jsontext import loads_service

if TYPE_CHECKING:
    import httpx

    from leadctl.config.secrets_out import PendingSecretFile
    from leadctl.context import Context


@dataclass(frozen=True)
class ProfileTarget:
    """Where ``--save-profile`` puts the new key: the profile, its store and base URL."""

    name: str
    store: str
    base_url: str


def profile_target(ctx: Context, name: str, *, insecure_storage: bool) -> ProfileTarget:
    """Checked before the request: once the key is rotated it is too late to say no."""

    validate_profile_name(name)
    if name == SANDBOX_PROFILE:
        raise UsageError("--save-profile sandbox: that name is reserved for the embedded sandbox")
    if ctx.settings.embedded_sandbox:
        raise UsageError(
            "--save-profile needs a fixed base URL; the embedded sandbox gets a new port "
            "on every run"
        )
    existing = ctx.config.profiles.get(name, {})
    kind = existing.get("credential_kind")
    if kind in ("org", "user"):
        raise UsageError(
            f"profile {name!r} holds an {kind} credential; saving the source key there "
            "would replace it",
            hint="choose a profile name for the intake scripts, e.g. --save-profile intake",
        )
    # A profile set up with --insecure-storage (a host without a keyring) stays that way.
    plain_file = insecure_storage or existing.get("credential_store") == "file"
    store = "file" if plain_file else "keyring"
    base_url = ctx.base_url()
    # A keyring that cannot take the key must be found while the old key still works.
    try:
        check_store(env=ctx.env, profile=name, insecure=plain_file)
    except KeyringUnavailable as error:
        # Nothing was rotated yet: the ways out are this command's own flags.
        error.hint = (
            "add --insecure-storage to keep the new key in a 0600 file under the config "
            "dir, or use --secret-file PATH instead of --save-profile"
        )
        raise
    return ProfileTarget(name=name, store=store, base_url=base_url)


@dataclass
class Delivery:
    """Where the new secret has been put so far, and what failed on the way."""

    safe_in: list[str]
    problems: list[str]
    recovery: str | None = None
    printed: bool = False


def keep_in_recovery(ctx: Context, source_id: str, data: bytes, delivery: Delivery) -> None:

    try:
        path = write_recovery_file(
            ctx.env, label=source_id, data=data, now=ctx.clock.now(), warn=ctx.ios.warn
        )
    except LeadctlError as error:
        delivery.problems.append(f"no recovery file either: {error.message}")
        ctx.ios.warn(f"could not keep the new key in a recovery file: {error.message}")
        return
    delivery.recovery = str(path)
    delivery.safe_in.append(str(path))
    ctx.ios.warn(f"the new key was kept in {path} (0600)")


def deliver(
    ctx: Context,
    *,
    source_id: str,
    secret: str,
    pending: PendingSecretFile | None,
    target: ProfileTarget | None,
) -> Delivery:
    """Put the secret everywhere the user asked, before anything is printed."""

    delivery = Delivery(safe_in=[], problems=[])
    data = (secret + "\n").encode("utf-8")
    if pending is not None:
        try:
            pending.commit(data)
        except OSError as error:
            delivery.problems.append(f"could not write {pending.path}: {error.strerror or error}")
        else:
            delivery.safe_in.append(str(pending.path))
            ctx.ios.info(f"saved the new key to {pending.path} (0600)")
    if target is not None:
        try:
            where = save_profile_credential(
                ctx.env,
                profile=target.name,
                value=secret,
                kind="source",
                base_url=target.base_url,
                store=target.store,
            )
        except LeadctlError as error:
            delivery.problems.append(
                f"could not save it for profile {target.name}: {error.message}"
            )
        else:
            delivery.safe_in.append(f"profile {target.name}")
            if target.store == "file":
                ctx.ios.warn(f"the new key is stored unencrypted in {where}")
            ctx.ios.info(f"saved the new key as profile {target.name}'s source key ({where})")
    if delivery.problems and not delivery.safe_in:
        keep_in_recovery(ctx, source_id, data, delivery)
    return delivery


def decode_rotation(ctx: Context, response: httpx.Response, source_id: str) -> dict[str, Any]:
    """The ``{source, secret}`` answer; a malformed one is kept raw, since it may hold the
    only copy of the new key."""
    body = _json_of(response)
    secret = body.get("secret") if isinstance(body, dict) else None
    if isinstance(body, dict) and isinstance(secret, str) and secret:
        return body
    raise _without_key(ctx, response, source_id)


def decode_flag_rotation(
    ctx: Context, response: httpx.Response, source_id: str, *, key_field: str, old: Any
) -> dict[str, Any]:
    """The updated source carrying the new key in ``key_field``, as ``{source, secret}``
    (the rotate operation's shape, so scripts read ``.secret`` whatever the contract); a
    malformed answer is kept raw, and the old key again means no new one was issued."""

    body = _json_of(response)
    secret = body.get(key_field) if isinstance(body, dict) else None
    if not (isinstance(body, dict) and isinstance(secret, str) and secret):
        raise _without_key(ctx, response, source_id)
    if secret == old:
        raise BadResponse(
            f"the service answered with the key the source already had ({key_field}): "
            "it did not issue a new one",
            hint="the current key still works; check the contract's update with "
            "`leadctl contract show` before trying again",
        )
    return {"source": body, "secret": secret}


def _json_of(response: httpx.Response) -> Any:

    try:
        return loads_service(response.content)
    except (ValueError, UnicodeDecodeError):
        return None


def _without_key(ctx: Context, response: httpx.Response, source_id: str) -> LeadctlError:

    content = response.content
    kept = ""
    if content:
        try:
            path = write_recovery_file(
                ctx.env, label=source_id, data=content, now=ctx.clock.now(), warn=ctx.ios.warn
            )
        except LeadctlError as error:
            kept = f"; its raw body could not be kept: {error.message}"
        else:
            kept = f"; its raw body was kept in {path} (0600)"
    return BadResponse(
        f"the service answered {response.status_code} to the rotation without a new key{kept}",
        hint="the old key may already be invalid: check the source's apiKeyRotatedAt "
        "before rotating again",
    )


def printing_failed(
    ctx: Context, error: Exception, source_id: str, secret: str, delivery: Delivery
) -> None:
    """Printing the key failed (stdout, or the drawing itself): a closed pipe after the key
    was saved ends quietly like any other command; otherwise the failure is reported and,
    unless saved, the key kept. The old key may already be invalid, so no failure of the
    printing may lose the new one."""

    closed = isinstance(error, BrokenPipeError)
    if closed:
        silence_stdout(ctx.ios.stdout)
    if closed and delivery.safe_in:
        return
    if not delivery.safe_in:
        keep_in_recovery(ctx, source_id, (secret + "\n").encode("utf-8"), delivery)
    strerror = error.strerror if isinstance(error, OSError) else None
    reason = "the output was closed" if closed else (strerror or type(error).__name__)
    delivery.problems.insert(0, f"could not print the new key: {reason}")


def delivery_error(target: ProfileTarget | None, delivery: Delivery) -> LeadctlError | None:
    """The exit-1 error naming what failed and where the key is, or None when all went well."""
    if not delivery.problems:
        return None
    kept = " and ".join(delivery.safe_in) or (
        "the output above only" if delivery.printed else "no file: rotate again"
    )
    return LeadctlError(
        f"{'; '.join(delivery.problems)}; the key was rotated and the new key is in {kept}",
        hint=finish_hint(target, delivery),
    )


def finish_hint(target: ProfileTarget | None, delivery: Delivery) -> str | None:
    if target is None or f"profile {target.name}" in delivery.safe_in:
        return None
    kept = delivery.recovery or next(iter(delivery.safe_in), None)
    if kept is None:
        return None
    return (
        f"to set up profile {target.name} from it: leadctl -p {target.name} auth login "
        f"--base-url {target.base_url} --kind source --with-token < {kept} "
        "(add --insecure-storage where there is no keyring)"
    )

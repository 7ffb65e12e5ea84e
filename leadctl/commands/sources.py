"""``leadctl sources``: update a lead source, rotate its intake key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._common import get_context
from leadctl.context import SANDBOX_PROFILE
from leadctl.errors import LeadctlError, UsageError
from leadctl.output.columns import Column

if TYPE_CHECKING:
    import httpx

    from leadctl.context import Context
    from leadctl.secrets_out import PendingSecretFile

app = typer.Typer(help="Update lead sources and rotate their intake keys.", no_args_is_help=True)

NAME_MAX_LENGTH = 255
# Fields only the older form of PUT /sources/{id} has; a body with any of them is that
# form, where the reference says name is required.
OLDER_FORM_FIELDS = ("id", "enabled", "businessId")

SOURCE_COLUMNS = (
    Column("id"),
    Column("name"),
    Column("enabled", kind="bool"),
    Column("allowedStates"),
    Column("allowedProducts"),
    Column("requiresConsentCertificate", kind="bool"),
    Column("apiKeyPreview"),
    Column("apiKeyRotatedAt", kind="datetime"),
    Column("modifiedAt", kind="datetime"),
)
# For csv/tsv/value: the secret is what the user asked this command for, so it is not masked.
ROTATION_COLUMNS = (
    Column("source.id", "id"),
    Column("source.name", "name"),
    Column("secret"),
    Column("source.apiKeyPreview", "apiKeyPreview"),
    Column("source.apiKeyRotatedAt", "apiKeyRotatedAt", kind="datetime"),
)


# -- update -------------------------------------------------------------------------------


def source_update_body(data: Any, flags: dict[str, Any]) -> dict[str, Any]:
    """The PUT body: ``--data`` with the given flags merged over it, checked before sending."""
    if data is not None and not isinstance(data, dict):
        raise UsageError("--data must be a JSON object (the Source fields to change)")
    body: dict[str, Any] = dict(data or {})
    body.update({key: value for key, value in flags.items() if value is not None})
    if not body:
        raise UsageError(
            "nothing to update: give at least one field flag or --data",
            hint="run `leadctl sources update --help` for the fields",
        )
    name = body.get("name")
    if isinstance(name, str) and len(name) > NAME_MAX_LENGTH:
        raise UsageError(
            f"the name is {len(name)} characters long; the service accepts at most "
            f"{NAME_MAX_LENGTH}"
        )
    if "apiKey" in body:
        raise UsageError(
            "apiKey cannot be set: the service never stores a key you choose",
            hint="issue a new key with `leadctl sources rotate ID`",
        )
    older = [key for key in OLDER_FORM_FIELDS if key in body]
    if older and "name" not in body:
        raise UsageError(
            f"{', '.join(older)} belong to the older form of the update, which requires "
            "the name as well",
            hint="add --name with the source's (current or new) name",
        )
    return body


@app.command(
    epilog="Examples:\n\n"
    "  leadctl sources update src_1 --allowed-state CA --allowed-state NV "
    "--requires-consent-certificate\n\n"
    "  leadctl sources update src_1 --default-tag-name 'web form' -o json | jq .defaultTags\n\n"
    "  leadctl sources update src_1 --name 'Web form' --data '{\"enabled\": false}'",
)
def update(
    typer_ctx: typer.Context,
    source_id: Annotated[str, typer.Argument(metavar="ID", help="The source to update.")],
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="TEXT", help="New name (at most 255 characters)."),
    ] = None,
    description: Annotated[
        str | None, typer.Option("--description", metavar="TEXT", help="New description.")
    ] = None,
    allowed_states: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-state",
            metavar="S",
            help="A state or region accepted; repeat for several (replaces the allowlist).",
        ),
    ] = None,
    allowed_products: Annotated[
        list[str] | None,
        typer.Option(
            "--allowed-product",
            metavar="P",
            help="A product accepted; repeat for several (replaces the allowlist).",
        ),
    ] = None,
    default_tag_ids: Annotated[
        list[str] | None,
        typer.Option(
            "--default-tag-id",
            metavar="T",
            help="A tag id given to the source's new leads; repeat for several.",
        ),
    ] = None,
    default_tag_names: Annotated[
        list[str] | None,
        typer.Option(
            "--default-tag-name",
            metavar="N",
            help="A tag name given to the source's new leads; repeat for several.",
        ),
    ] = None,
    requires_consent_certificate: Annotated[
        bool | None,
        typer.Option(
            "--requires-consent-certificate/--no-requires-consent-certificate",
            help="Whether leads must carry a consent certificate.",
            show_default=False,
        ),
    ] = None,
    data: Annotated[
        str | None,
        typer.Option(
            "--data",
            metavar="JSON|@FILE|-",
            help="More fields as a JSON object (e.g. enabled, businessId); flags win.",
        ),
    ] = None,
) -> None:
    """Update a lead source (PUT /sources/{id}) and print it.

    Only the fields you give are sent when the active contract takes a partial update (the
    bundled contract assumes one: the API docs do not show which fields are required).
    Where the contract's update requires fields you did not give, the source is read first
    (GET /sources/{id}), your changes are merged over it and the whole source is sent, with
    If-Match when the read carried an ETag (a change made meanwhile is exit 6); --dry-run
    shows that body. A list flag replaces the whole list; to empty one, send it with
    --data '{"allowedStates": []}'.

    --data carries anything else, including the older form's fields (enabled, businessId),
    which the API docs say need the name too. A name over 255 characters is refused
    before sending. Rotate the intake key with `leadctl sources rotate`.
    """
    from leadctl.fields import load_data_option
    from leadctl.operations import curated
    from leadctl.output import emit_object

    ctx = get_context(typer_ctx)
    loaded = load_data_option(data, stdin=ctx.ios.stdin) if data is not None else None
    body = source_update_body(
        loaded,
        {
            "name": name,
            "description": description,
            "allowedStates": allowed_states or None,
            "allowedProducts": allowed_products or None,
            "defaultTagIds": default_tag_ids or None,
            "defaultTagNames": default_tag_names or None,
            "requiresConsentCertificate": requires_consent_certificate,
        },
    )
    from leadctl.replace import replace_resource_json
    from leadctl.shapes import require_object

    source = require_object(
        replace_resource_json(
            ctx, curated(ctx, "PUT", "/sources/{id}"), path_params={"id": source_id}, changes=body
        ),
        what="the updated source",
        required=("id",),
    )
    emit_object(ctx, source, columns=SOURCE_COLUMNS)


# -- rotate -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ProfileTarget:
    """Where ``--save-profile`` puts the new key: the profile, its store and base URL."""

    name: str
    store: str
    base_url: str


def _profile_target(ctx: Context, name: str, *, insecure_storage: bool) -> ProfileTarget:
    """Checked before the request: once the key is rotated it is too late to say no."""
    from leadctl.config import validate_profile_name
    from leadctl.credentials import check_store

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
    check_store(env=ctx.env, profile=name, insecure=plain_file)
    return ProfileTarget(name=name, store=store, base_url=base_url)


def _save_to_profile(ctx: Context, target: ProfileTarget, secret: str) -> str:
    from leadctl.config import Config, update_config
    from leadctl.credentials import save_credential

    where = save_credential(
        env=ctx.env, profile=target.name, value=secret, insecure=target.store == "file"
    )

    def remember(config: Config) -> None:
        values = config.profiles.setdefault(target.name, {})
        values["base_url"] = target.base_url
        values["credential_store"] = target.store
        values["credential_kind"] = "source"

    update_config(ctx.env, remember)
    return where


@dataclass
class Delivery:
    """Where the new secret has been put so far, and what failed on the way."""

    safe_in: list[str]
    problems: list[str]
    recovery: str | None = None
    printed: bool = False


def _keep_in_recovery(ctx: Context, source_id: str, data: bytes, delivery: Delivery) -> None:
    from leadctl.secrets_out import write_recovery_file

    try:
        path = write_recovery_file(ctx.env, label=source_id, data=data, now=ctx.clock.now())
    except LeadctlError as error:
        delivery.problems.append(f"no recovery file either: {error.message}")
        ctx.ios.warn(f"could not keep the new key in a recovery file: {error.message}")
        return
    delivery.recovery = str(path)
    delivery.safe_in.append(str(path))
    ctx.ios.warn(f"the new key was kept in {path} (0600)")


def _store(
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
            where = _save_to_profile(ctx, target, secret)
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
        _keep_in_recovery(ctx, source_id, data, delivery)
    return delivery


def _show_rotation(ctx: Context, rotation: dict[str, Any], secret: str) -> None:
    """The terminal view: the secret once, a warning, and what changed on the source."""
    import io

    from rich.console import Console
    from rich.text import Text

    from leadctl.output.cells import format_datetime, terminal_safe

    ios = ctx.ios
    source = rotation.get("source")
    source = source if isinstance(source, dict) else {}

    def field(key: str) -> str:
        value = source.get(key)
        return terminal_safe(str(value), one_line=True) if value is not None else ""

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=ios.stdout_is_tty,
        no_color=not ios.stdout_color,
        color_system="auto" if ios.stdout_color else None,
        # A pseudo-terminal that was never sized reports 0 columns.
        width=ios.terminal_width() or 80,
        markup=False,
        emoji=False,
        highlight=False,
    )
    label = f'"{field("name")}" ({field("id")})' if field("name") else field("id")
    console.print(Text(f"New intake key for source {label}:"))
    console.print()
    # soft_wrap: a narrow terminal must not break the key with an inserted newline.
    console.print(Text("  " + terminal_safe(secret, one_line=True), style="bold"), soft_wrap=True)
    console.print()
    console.print(
        Text(
            "Store it now: it cannot be shown again. The previous key no longer works.",
            style="bold yellow",
        )
    )
    rotated = source.get("apiKeyRotatedAt")
    console.print(Text(f"key preview  {field('apiKeyPreview')}"))
    rotated_text = format_datetime(rotated) if isinstance(rotated, str) else ""
    console.print(Text(f"rotated at   {terminal_safe(rotated_text, one_line=True)}"))
    ios.stdout.write(buffer.getvalue())
    ios.stdout.flush()


def _print_rotation(
    ctx: Context, rotation: dict[str, Any], secret: str, *, secret_only: bool
) -> None:
    from leadctl.output import emit_object

    if secret_only:
        ctx.ios.stdout.write(secret + "\n")
        ctx.ios.stdout.flush()
    elif ctx.output_format == "table" and not ctx.options.columns:
        _show_rotation(ctx, rotation, secret)
    else:
        emit_object(ctx, rotation, columns=ROTATION_COLUMNS)


def _decode_rotation(ctx: Context, response: httpx.Response, source_id: str) -> dict[str, Any]:
    """The ``{source, secret}`` answer; a malformed one is kept raw, since it may hold the
    only copy of the new key."""
    import json

    from leadctl.errors import BadResponse
    from leadctl.secrets_out import write_recovery_file

    content = response.content
    try:
        body = json.loads(content)
    except (ValueError, UnicodeDecodeError):
        body = None
    secret = body.get("secret") if isinstance(body, dict) else None
    if isinstance(body, dict) and isinstance(secret, str) and secret:
        return body
    kept = ""
    if content:
        try:
            path = write_recovery_file(ctx.env, label=source_id, data=content, now=ctx.clock.now())
        except LeadctlError as error:
            kept = f"; its raw body could not be kept: {error.message}"
        else:
            kept = f"; its raw body was kept in {path} (0600)"
    raise BadResponse(
        f"the service answered {response.status_code} to the rotation without a new key{kept}",
        hint="the old key may already be invalid: check the source's apiKeyRotatedAt "
        "before rotating again",
    )


def _rotate(
    ctx: Context,
    source_id: str,
    *,
    pending: PendingSecretFile | None,
    target: ProfileTarget | None,
    secret_only: bool,
) -> tuple[Delivery, bool]:
    """Send the rotation and deliver the new key, with Ctrl-C held back from just before
    sending until the key is safe; returns the delivery and whether Ctrl-C was pressed."""
    from leadctl.operations import curated
    from leadctl.secrets_out import deferred_sigint, stderr_notice

    client = ctx.client()
    notice = stderr_notice(
        ctx.ios.stderr, "interrupt: finishing the rotation first, so the new key is not lost"
    )
    with deferred_sigint(notice) as interrupts:
        response = client.call(
            curated(ctx, "POST", "/sources/{id}/credentials/rotate"), path_params={"id": source_id}
        )
        rotation = _decode_rotation(ctx, response, source_id)
        secret: str = rotation["secret"]
        delivery = _store(ctx, source_id=source_id, secret=secret, pending=pending, target=target)
        try:
            _print_rotation(ctx, rotation, secret, secret_only=secret_only)
        except OSError as error:
            _printing_failed(ctx, error, source_id, secret, delivery)
        else:
            delivery.printed = True
    return delivery, interrupts.received > 0


@app.command(
    epilog="Examples:\n\n"
    "  leadctl sources rotate src_1\n\n"
    "  NEW=$(leadctl sources rotate src_1 --yes --secret-only)\n\n"
    "  leadctl sources rotate src_1 -y --secret-file key.txt --save-profile intake",
)
def rotate(
    typer_ctx: typer.Context,
    source_id: Annotated[str, typer.Argument(metavar="ID", help="The source whose key to rotate.")],
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; required without a terminal.")
    ] = False,
    secret_only: Annotated[
        bool, typer.Option("--secret-only", help="Print only the new key and a newline.")
    ] = False,
    secret_file: Annotated[
        str | None,
        typer.Option(
            "--secret-file",
            metavar="PATH",
            help="Also write the new key to PATH (0600, atomically, replacing a regular "
            "file there; a symbolic link is refused).",
        ),
    ] = None,
    save_profile: Annotated[
        str | None,
        typer.Option(
            "--save-profile",
            metavar="NAME",
            help="Also store the new key as profile NAME's source key (created if needed, "
            "with this base URL), for `leadctl -p NAME leads create`.",
        ),
    ] = None,
    insecure_storage: Annotated[
        bool,
        typer.Option(
            "--insecure-storage",
            help="With --save-profile: store the key in a 0600 file under the config dir "
            "instead of the OS keyring (for hosts without one).",
        ),
    ] = False,
) -> None:
    """Rotate a source's intake key (POST /sources/{id}/credentials/rotate).

    The current key stops working at once and the service returns the new one exactly
    once, so leadctl never loses it: it is written to --secret-file and stored for
    --save-profile before anything is printed; if printing fails (a closed pipe) or a
    requested store fails, the key is kept in a 0600 file under the data dir
    (recovered-secrets/) and its path is shown on stderr, and the exit code is 1. Ctrl-C
    after the request was sent takes effect only once the key is safe (exit 130).

    On a terminal the key is shown once with a warning; piped, the service's JSON
    ({source, secret}) is printed unchanged. Asks for confirmation on a terminal and needs
    --yes without one. The request is never repeated (except after a 429): a failure
    after sending is exit 9, and the source's apiKeyRotatedAt tells whether it happened.
    """
    from leadctl.secrets_out import PendingSecretFile, check_secret_file

    ctx = get_context(typer_ctx)
    file_path = check_secret_file(secret_file) if secret_file is not None else None
    if insecure_storage and save_profile is None:
        raise UsageError("--insecure-storage goes with --save-profile NAME")
    target = (
        _profile_target(ctx, save_profile, insecure_storage=insecure_storage)
        if save_profile is not None
        else None
    )
    dry_run = ctx.options.dry_run
    # Opened before asking: a directory that cannot take the file is found while the old
    # key still works.
    pending = PendingSecretFile(file_path) if file_path is not None and not dry_run else None
    try:
        if not dry_run:
            ctx.ios.confirm(
                f"Rotate the intake key of source {source_id}? "
                "The current key stops working at once",
                assume_yes=yes,
            )
        delivery, interrupted = _rotate(
            ctx, source_id, pending=pending, target=target, secret_only=secret_only
        )
    finally:
        if pending is not None:
            pending.discard()
    if interrupted:
        raise KeyboardInterrupt
    if delivery.problems:
        kept = " and ".join(delivery.safe_in) or (
            "the output above only" if delivery.printed else "no file: rotate again"
        )
        raise LeadctlError(
            f"{'; '.join(delivery.problems)}; the key was rotated and the new key is in {kept}",
            hint=_finish_hint(target, delivery),
        )


def _printing_failed(
    ctx: Context, error: OSError, source_id: str, secret: str, delivery: Delivery
) -> None:
    """stdout failed: a closed pipe after the key was saved ends quietly like any other
    command; otherwise the failure is reported and, unless saved, the key kept."""
    from leadctl.secrets_out import silence_stdout

    closed = isinstance(error, BrokenPipeError)
    if closed:
        silence_stdout(ctx.ios.stdout)
    if closed and delivery.safe_in:
        return
    if not delivery.safe_in:
        _keep_in_recovery(ctx, source_id, (secret + "\n").encode("utf-8"), delivery)
    reason = "the output was closed" if closed else (error.strerror or type(error).__name__)
    delivery.problems.insert(0, f"could not print the new key: {reason}")


def _finish_hint(target: ProfileTarget | None, delivery: Delivery) -> str | None:
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

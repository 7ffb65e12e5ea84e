"""``leadctl sources rotate``: rotate a source's intake key without ever losing the new one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.sources.key_delivery import (
    Delivery,
    ProfileTarget,
    decode_flag_rotation,
    decode_rotation,
    deliver,
    delivery_error,
    printing_failed,
    profile_target,
)
from leadctl.commands.sources.rotation import ByFlag, ByOperation, rotation_plan
from leadctl.config.redact import redact_json
from leadctl.config.secrets_out import (
    PendingSecretFile,
    check_secret_file,
    deferred_sigint,
    stderr_notice,
)
from leadctl.contract.operations import bundled_operation
from leadctl.errors import OutcomeUnknown, UsageError
from leadctl.http.resend import check_hint
from leadctl.iostreams import safe_text
from leadctl.output import emit_object
from leadctl.output.cells import format_datetime
from leadctl.output.columns import Column
from leadctl.verbkit.replace import plan_replacement, send_replacement

if TYPE_CHECKING:
    from pathlib import Path

    from leadctl.config.secrets_out import PendingSecretFile
    from leadctl.context import Context
    from leadctl.verbkit.replace import Replacement

# For csv/tsv/value: the secret is what the user asked this command for, so it is not masked.
ROTATION_COLUMNS = (
    Column("source.id", "id"),
    Column("source.name", "name"),
    Column("secret"),
    Column("source.apiKeyPreview", "apiKeyPreview"),
    Column("source.apiKeyRotatedAt", "apiKeyRotatedAt", kind="datetime"),
)
# With --secret-file: where the key went instead of the key.
SAVED_COLUMNS = (
    Column("source.id", "id"),
    Column("source.name", "name"),
    Column("secretFile"),
    Column("source.apiKeyPreview", "apiKeyPreview"),
    Column("source.apiKeyRotatedAt", "apiKeyRotatedAt", kind="datetime"),
)

EPILOG = (
    "Examples:\n\n"
    "  leadctl sources rotate SOURCE_ID\n\n"
    "  NEW=$(leadctl sources rotate SOURCE_ID --yes --secret-only)\n\n"
    "  leadctl sources rotate SOURCE_ID -y --secret-file key.txt --save-profile intake"
)


@dataclass(frozen=True)
class Options:
    source_id: Annotated[str, typer.Argument(metavar="ID", help="The source whose key to rotate.")]
    # Do not ask; required without a terminal.
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Do not ask; required without a terminal.")
    ] = False
    # Print only the new key and a newline.
    secret_only: Annotated[
        bool, typer.Option("--secret-only", help="Print only the new key and a newline.")
    ] = False
    # As given: run checks it (no symbolic link, a regular file) before sending.
    secret_file: Annotated[
        str | None,
        typer.Option(
            "--secret-file",
            metavar="PATH",
            help="Write the new key to PATH (0600, atomically, replacing a regular file "
            "there; a symbolic link is refused) instead of printing it (with --secret-only "
            "it is printed too).",
        ),
    ] = None
    # The profile to store the new key in as its source key.
    save_profile: Annotated[
        str | None,
        typer.Option(
            "--save-profile",
            metavar="NAME",
            help="Also store the new key as profile NAME's source key (created if needed, "
            "with this base URL), for `leadctl -p NAME leads create`.",
        ),
    ] = None
    # With save_profile: the 0600 file store instead of the keyring.
    insecure_storage: Annotated[
        bool,
        typer.Option(
            "--insecure-storage",
            help="With --save-profile: store the key in a 0600 file under the config dir "
            "instead of the OS keyring (for hosts without one).",
        ),
    ] = False


def run(opts: Options, ctx: Context) -> None:
    """Check every destination, ask, rotate, deliver the key; exit 1 (a LeadctlError) when
    a destination failed, KeyboardInterrupt when Ctrl-C was held back until the key was safe."""

    source_id = opts.source_id
    file_path = check_secret_file(opts.secret_file) if opts.secret_file is not None else None
    if opts.insecure_storage and opts.save_profile is None:
        raise UsageError("--insecure-storage goes with --save-profile NAME")
    target = (
        profile_target(ctx, opts.save_profile, insecure_storage=opts.insecure_storage)
        if opts.save_profile is not None
        else None
    )
    plan = rotation_plan(ctx)
    dry_run = ctx.options.dry_run
    # Opened before asking: a directory that cannot take the file is found while the old
    # key still works.
    pending = PendingSecretFile(file_path) if file_path is not None and not dry_run else None
    try:
        if not dry_run:
            ctx.ios.confirm(
                f"Rotate the intake key of source {source_id}? "
                "The current key stops working at once",
                assume_yes=opts.yes,
            )
        planned = _read_for(ctx, plan, source_id)
        delivery, interrupted = _rotate(
            ctx,
            source_id,
            plan,
            planned,
            pending=pending,
            target=target,
            secret_only=opts.secret_only,
        )
    finally:
        if pending is not None:
            pending.discard()
    if interrupted:
        raise KeyboardInterrupt
    failure = delivery_error(target, delivery)
    if failure is not None:
        raise failure


def _read_for(ctx: Context, plan: ByOperation | ByFlag, source_id: str) -> Replacement | None:
    """For a rotation by the update's flag: the whole body it will carry (the source as
    read, without the old key, the flag set), found before anything changes."""
    if isinstance(plan, ByOperation):
        return None

    return plan_replacement(ctx, plan.put, path_params={"id": source_id}, changes={plan.flag: True})


def _rotate(
    ctx: Context,
    source_id: str,
    plan: ByOperation | ByFlag,
    planned: Replacement | None,
    *,
    pending: PendingSecretFile | None,
    target: ProfileTarget | None,
    secret_only: bool,
) -> tuple[Delivery, bool]:
    """Send the rotation and deliver the new key, with Ctrl-C held back from just before
    sending until the key is safe; returns the delivery and whether Ctrl-C was pressed."""

    notice = stderr_notice(
        ctx.ios.stderr, "interrupt: finishing the rotation first, so the new key is not lost"
    )
    with deferred_sigint(notice) as interrupts:
        rotation = _send(ctx, source_id, plan, planned)
        secret: str = rotation["secret"]
        delivery = deliver(ctx, source_id=source_id, secret=secret, pending=pending, target=target)
        # --secret-file keeps the key off stdout (cron mail, logs), unless --secret-only
        # asks for it there too, or nothing could keep it: then printing it is the last
        # way not to lose it.
        withheld = pending is not None and not secret_only and bool(delivery.safe_in)
        saved_to = (
            pending.path if pending is not None and str(pending.path) in delivery.safe_in else None
        )
        try:
            if withheld:
                _print_saved(ctx, rotation, saved_to)
            else:
                _print_rotation(ctx, rotation, secret, secret_only=secret_only)
        except Exception as error:  # whatever broke the drawing or the stream: keep the key
            printing_failed(ctx, error, source_id, secret, delivery)
        else:
            delivery.printed = not withheld
    return delivery, interrupts.received > 0


def _send(
    ctx: Context, source_id: str, plan: ByOperation | ByFlag, planned: Replacement | None
) -> dict[str, Any]:
    """The rotation's answer as ``{source, secret}``, whichever way the contract rotates."""
    if isinstance(plan, ByOperation):
        response = ctx.client().call(plan.op, path_params={"id": source_id})
        return decode_rotation(ctx, response, source_id)

    assert planned is not None
    try:
        response = send_replacement(ctx, plan.put, planned, path_params={"id": source_id})
    except OutcomeUnknown as error:
        # The check is the rotate operation's: whether apiKeyRotatedAt moved.
        error.hint = check_hint(bundled_operation("POST", "/sources/{id}/credentials/rotate"))
        raise
    old = planned.read.get(plan.key_field) if isinstance(planned.read, dict) else None
    return decode_flag_rotation(ctx, response, source_id, key_field=plan.key_field, old=old)


def _print_rotation(
    ctx: Context, rotation: dict[str, Any], secret: str, *, secret_only: bool
) -> None:

    if secret_only:
        # As received for NEW=$(...); shown safely if it lands on a terminal.
        out = ctx.ios.data_out()
        out.write(secret + "\n")
        out.flush()
    else:
        emit_object(ctx, rotation, columns=ROTATION_COLUMNS, view=show_rotation)


def _print_saved(ctx: Context, rotation: dict[str, Any], saved_to: Path | None) -> None:
    """What changed, and where the key went instead of the key: the source as answered
    with its secrets (the new key, in a rotation by the update's flag) masked."""

    saved = {
        "source": redact_json(rotation.get("source"), in_text=False),
        "secretFile": None if saved_to is None else str(saved_to),
    }
    emit_object(ctx, saved, columns=SAVED_COLUMNS, view=show_saved)


def show_rotation(ctx: Context, rotation: Any) -> None:
    """The terminal view: the secret once, a warning, and what changed on the source."""
    import io

    from rich.text import Text

    # Here, not at the top: -o json and the other formats print the answer as received
    # and must not load pydantic.
    from leadctl.models.sources import Rotation, Source

    ios = ctx.ios
    read = Rotation.read(rotation)
    # decode_rotation let only an answer with a non-empty text secret through.
    secret = read.secret or ""
    source = read.source or Source()

    def shown(value: str | None) -> str:
        return safe_text(value, one_line=True) if value is not None else ""

    # Drawn into a buffer and written at once: a failing stdout fails in one place, where
    # the caller keeps the key.
    buffer = io.StringIO()
    console = ios.console(file=buffer)
    name, source_id = shown(source.name), shown(source.id)
    label = f'"{name}" ({source_id})' if name else source_id
    console.print(Text(f"New intake key for source {label}:"))
    console.print()
    # soft_wrap: a narrow terminal must not break the key with an inserted newline.
    console.print(Text("  " + safe_text(secret, one_line=True), style="bold"), soft_wrap=True)
    console.print()
    console.print(
        Text(
            "Store it now: it cannot be shown again. The previous key no longer works.",
            style="bold yellow",
        )
    )
    console.print(Text(f"key preview  {shown(source.api_key_preview)}"))
    rotated = source.api_key_rotated_at
    rotated_text = format_datetime(rotated) if rotated is not None else ""
    console.print(Text(f"rotated at   {safe_text(rotated_text, one_line=True)}"))
    ios.stdout.write(buffer.getvalue())
    ios.stdout.flush()


def show_saved(ctx: Context, saved: Any) -> None:
    """The terminal view with --secret-file: what changed, and where the key is."""
    from rich.text import Text

    from leadctl.models.sources import Source

    def shown(value: str | None) -> str:
        return safe_text(value, one_line=True) if value is not None else ""

    source = Source.read(saved.get("source") or {})
    name, source_id = shown(source.name), shown(source.id)
    label = f'"{name}" ({source_id})' if name else source_id
    where = saved.get("secretFile")
    console = ctx.ios.console()
    if where:
        console.print(Text(f"New intake key for source {label} written to {shown(where)} (0600)."))
    else:
        console.print(
            Text(f"New intake key for source {label} kept where stderr says (not shown).")
        )
    console.print(Text("The previous key no longer works.", style="bold yellow"))
    console.print(Text(f"key preview  {shown(source.api_key_preview)}"))
    rotated = source.api_key_rotated_at
    rotated_text = format_datetime(rotated) if rotated is not None else ""
    console.print(Text(f"rotated at   {safe_text(rotated_text, one_line=True)}"))


HELP = """Rotate a source's intake key (POST /sources/{id}/credentials/rotate).

    Follows the active contract: where it has no rotate operation, the source is read and
    its update (PUT /sources/{id}) is sent with the field that asks the service for a new
    key (found by its type and description, e.g. regenerateApiKey), without the old key;
    the new key is taken from the answer. A contract with neither is exit 2.

    The current key stops working at once and the service returns the new one exactly
    once, so leadctl never loses it: it is written to --secret-file and stored for
    --save-profile before anything is printed; if printing fails (a closed pipe) or a
    requested store fails, the key is kept in a 0600 file under the data dir
    (recovered-secrets/) and its path is shown on stderr, and the exit code is 1. Ctrl-C
    after the request was sent takes effect only once the key is safe (exit 130).

    On a terminal the key is shown once with a warning; piped, {source, secret} is printed
    (the rotate operation's answer as received, or the updated source and its new key).
    With --secret-file the key is not printed (unless --secret-only asks for it): stdout
    shows the source (secrets masked) and the file. Asks for confirmation on a terminal and
    needs --yes without one. The request is never repeated (except after a 429): a failure
    after sending is exit 9, and the source's apiKeyRotatedAt tells whether it happened.
    """

command = verb_command(Options, run, help=HELP)

"""``leadctl webhooks verify``: is one captured delivery genuine and fresh?"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from leadctl.commands._verb import verb_command
from leadctl.commands.webhooks._shared import (
    DEFAULT_TOLERANCE,
    SecretFileOption,
    ToleranceOption,
    read_bytes,
    secret_for,
    tolerance_seconds,
)
from leadctl.errors import UsageError
from leadctl.output import display_zone_of, emit_object
from leadctl.output.cells import format_datetime
from leadctl.output.columns import Column
from leadctl.util.durations import describe_seconds
from leadctl.util.safetext import safe_text
from leadctl.webhooks.captured import parse_captured
from leadctl.webhooks.verification import verify_delivery

if TYPE_CHECKING:
    from leadctl.context import Context

RESULT_COLUMNS = (
    Column("valid"),
    Column("webhookId"),
    Column("signedAt", kind="datetime"),
    Column("ageSeconds"),
    Column("matchedSignature"),
)

EPILOG = (
    "Examples:\n\n"
    "  leadctl webhooks verify --request delivery.http\n\n"
    '  leadctl webhooks verify -H "webhook-id: $ID" -H "webhook-timestamp: $TS" '
    '-H "webhook-signature: $SIG" --body payload.json\n\n'
    "  LEADCTL_WEBHOOK_SECRET=whsec_... leadctl webhooks verify --request - < capture.txt"
)


@dataclass(frozen=True)
class Options:
    # As typed: 'name: value'.
    headers: Annotated[
        tuple[str, ...],
        typer.Option(
            "--header",
            "-H",
            metavar="'NAME: VALUE'",
            help="A header of the delivery (repeatable): webhook-id, webhook-timestamp, "
            "webhook-signature.",
        ),
    ] = ()
    # FILE or - (stdin); the exact bytes are what was signed.
    body: Annotated[
        str | None,
        typer.Option(
            "--body",
            metavar="FILE|-",
            help="The delivery's body, byte for byte as received (- reads stdin).",
        ),
    ] = None
    # A raw captured HTTP request (FILE or -), instead of --header/--body.
    request: Annotated[
        str | None,
        typer.Option(
            "--request",
            metavar="FILE|-",
            help="A raw captured HTTP request (request line, headers, blank line, body; CRLF "
            "or LF line ends; Content-Length or chunked respected), instead of --header/--body.",
        ),
    ] = None
    tolerance: ToleranceOption = DEFAULT_TOLERANCE
    secret_file: SecretFileOption = None


def run(opts: Options, ctx: Context) -> None:
    """Exit 0 and print the delivery's facts when it is genuine and fresh; exit 6 naming the
    failed check otherwise (WebhookInvalid)."""
    tolerance = tolerance_seconds(opts.tolerance)
    headers, body = _delivery(opts, ctx)
    secret = secret_for(ctx, opts.secret_file)
    verified = verify_delivery(
        secret, headers, body, now=ctx.clock.now().timestamp(), tolerance=tolerance
    )
    from datetime import datetime, timezone

    signed_at = datetime.fromtimestamp(verified.timestamp, timezone.utc)
    result = {
        "valid": True,
        "webhookId": verified.msg_id,
        "timestamp": verified.timestamp,
        "signedAt": signed_at.isoformat().replace("+00:00", "Z"),
        "ageSeconds": round(verified.age),
        "matchedSignature": verified.matched,
        "signatures": verified.signatures,
    }
    emit_object(ctx, result, columns=RESULT_COLUMNS, view=_show_valid)


def _delivery(opts: Options, ctx: Context) -> tuple[list[tuple[str, str]], bytes]:
    if opts.request is not None:
        if opts.headers or opts.body is not None:
            raise UsageError("--request holds the headers and body: leave out --header and --body")

        what = "--request " + opts.request
        captured = parse_captured(read_bytes(ctx, opts.request, what="--request"), what=what)
        return captured.headers, captured.body
    if opts.body is None:
        raise UsageError(
            "nothing to verify: give --request FILE, or --header ... and --body FILE|-",
        )
    headers = [_header(text) for text in opts.headers]
    return headers, read_bytes(ctx, opts.body, what="--body")


def _header(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.strip() or any(ch.isspace() for ch in name.strip()):
        raise UsageError(f"--header {text!r}: expected 'name: value'")
    return name.strip(), value.strip()


def _show_valid(ctx: Context, result: Any) -> None:

    age = result["ageSeconds"]
    when = "now" if age == 0 else describe_seconds(age) + (" ago" if age > 0 else " ahead")
    webhook_id = safe_text(result["webhookId"], one_line=True)
    signed = format_datetime(result["signedAt"], display_zone_of(ctx))
    ctx.ios.stdout.write(
        f"valid: webhook-id {webhook_id}, signed {signed} ({when}), "
        f"signature {result['matchedSignature']} of {result['signatures']} matched\n"
    )
    ctx.ios.stdout.flush()


HELP = """Check that one webhook delivery is genuine and fresh (Standard Webhooks).

    The signature (webhook-signature: one or more space-separated v1,<base64> entries) must
    be the HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" under the secret, compared
    in constant time, and webhook-timestamp within --tolerance of this machine's clock.
    Exit 0 when valid (the facts are printed); exit 6 naming the failed check: missing
    header, malformed header, timestamp outside tolerance, bad signature; exit 2 for a
    malformed secret or unreadable input; exit 3 when no secret is found.

    The secret (whsec_...) comes from --secret-file, LEADCTL_WEBHOOK_SECRET, or the
    profile's OS keyring entry (`leadctl webhooks secret set`); never from an argument.
    """

command = verb_command(Options, run, help=HELP)

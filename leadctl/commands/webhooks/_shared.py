"""What the ``leadctl webhooks`` verbs share: the secret and tolerance options, byte input."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from leadctl.errors import UsageError
from leadctl.util.durations import parse_duration
from leadctl.webhooks.secret import WebhookSecret, find_secret

if TYPE_CHECKING:
    from leadctl.context import Context

DEFAULT_TOLERANCE = "5m"

SecretFileOption = Annotated[
    str | None,
    typer.Option(
        "--secret-file",
        metavar="PATH",
        help="Read the whsec_ signing secret from PATH (wins over LEADCTL_WEBHOOK_SECRET, "
        "which wins over the profile's secret from `webhooks secret set`).",
    ),
]
ToleranceOption = Annotated[
    str,
    typer.Option(
        "--tolerance",
        metavar="DURATION",
        help="How far webhook-timestamp may be from this machine's clock, either way "
        "(30s, 5m, 1h); older or newer deliveries are refused as replays.",
    ),
]


def secret_for(ctx: Context, secret_file: str | None) -> WebhookSecret:
    return find_secret(env=ctx.env, profile=ctx.profile_name, secret_file=secret_file)


def tolerance_seconds(text: str) -> float:

    try:
        return parse_duration(text)
    except ValueError as error:
        raise UsageError(f"--tolerance: {error}") from None


def read_bytes(ctx: Context, source: str, *, what: str) -> bytes:
    """The exact bytes of a file, or of stdin for ``-``: signatures cover bytes, so no
    newline translation and no decoding."""
    if source == "-":
        stdin = ctx.ios.stdin
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            data: bytes = buffer.read()
            return data
        return stdin.read().encode("utf-8")
    try:
        return Path(source).expanduser().read_bytes()
    except OSError as error:
        raise UsageError(f"{what}: cannot read {source!r}: {error.strerror or error}") from None

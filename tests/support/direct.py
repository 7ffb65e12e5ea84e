"""A Context for calling a verb's ``run(opts, ctx)`` directly, without the command line."""

from __future__ import annotations

import io
import os
from collections.abc import Mapping

from leadctl.clock import Clock
from leadctl.context import Context, GlobalOptions
from leadctl.iostreams import IOStreams
from tests.support.cli import FakeClock, token_env


def direct_context(
    *,
    output: str | None = None,
    columns: list[str] | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str = "",
    tty: bool = False,
    dry_run: bool = False,
    clock: Clock | None = None,
) -> Context:
    """An organization-key Context on fake streams (the test's isolated config dirs)."""
    merged = {**os.environ, **token_env(), **(env or {})}
    return Context(
        IOStreams.for_test(stdin=stdin, tty=tty, env=merged),
        GlobalOptions(
            base_url=merged.get("LEADCTL_BASE_URL"),
            output=output,
            columns=columns,
            dry_run=dry_run,
        ),
        clock=clock or FakeClock(),
        env=merged,
    )


def stdout_of(ctx: Context) -> str:
    stream = ctx.ios.stdout
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()


def stderr_of(ctx: Context) -> str:
    stream = ctx.ios.stderr
    assert isinstance(stream, io.StringIO)
    return stream.getvalue()

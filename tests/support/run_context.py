"""A Context for calling a verb's ``run(opts, ctx)`` directly: fake streams, the test clock,
the token and base URL of ``tests.support.cli`` (pytest-httpx catches the requests), or
neither for the verbs that set credentials up (``auth``, ``profile``)."""

from __future__ import annotations

import io
import os
from collections.abc import Mapping

from leadctl.clock import Clock
from leadctl.context import Context
from leadctl.global_options import GlobalOptions
from leadctl.iostreams import IOStreams
from tests.support.cli import BASE_URL, FakeClock, token_env


def direct_context(
    *,
    output: str | None = None,
    columns: list[str] | None = None,
    tty: bool = False,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
    clock: Clock | None = None,
    profile: str | None = None,
    signed_in: bool = True,
) -> Context:
    """``signed_in=False``: no token and no base URL, as before ``auth login``."""
    credential = token_env() if signed_in else {}
    merged = {**os.environ, **credential, "COLUMNS": "100", **(env or {})}
    return Context(
        IOStreams.for_test(stdin=stdin, tty=tty, env=merged),
        # The root callback turns LEADCTL_BASE_URL into this option; no callback runs here.
        GlobalOptions(
            output=output,
            columns=columns,
            profile=profile,
            base_url=BASE_URL if signed_in else None,
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

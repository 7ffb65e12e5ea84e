"""Running leadctl in-process with fake streams, a chosen TTY state and a fake clock."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from leadctl.cli.app import invoke
from leadctl.clock import Clock
from leadctl.iostreams import IOStreams

ORG_KEY = "sk_test_0123456789abcdef0123"
BASE_URL = "https://api.example.test"


@dataclass
class FakeClock(Clock):
    """Records sleeps instead of sleeping."""

    sleeps: list[float] = field(default_factory=list)
    start: datetime = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)

    def now(self) -> datetime:
        return self.start

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


@dataclass
class VirtualClock(Clock):
    """Monotonic time that moves only when someone sleeps; every sleep is recorded. Thread-safe:
    paced workers share it."""

    now_s: float = 1000.0
    sleeps: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def monotonic(self) -> float:
        with self.lock:
            return self.now_s

    def sleep(self, seconds: float) -> None:
        with self.lock:
            self.sleeps.append(seconds)
            self.now_s += seconds


@dataclass
class Result:
    exit_code: int
    stdout: str
    stderr: str
    ios: IOStreams = field(repr=False)


def run_cli(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    stdin: str = "",
    tty: bool = False,
    stdout_tty: bool | None = None,
    clock: Clock | None = None,
    transport: Any = None,
) -> Result:
    merged = dict(os.environ)
    merged.update(env or {})
    ios = IOStreams.for_test(stdin=stdin, tty=tty, stdout_tty=stdout_tty, env=merged)
    # Typer prints --help itself, to the process's stdout: here, the fake one.
    with contextlib.redirect_stdout(ios.stdout):
        code = invoke(
            list(args), ios=ios, env=merged, clock=clock or FakeClock(), transport=transport
        )
    return Result(code, ios.stdout.getvalue(), ios.stderr.getvalue(), ios)  # type: ignore[attr-defined]


def token_env(token: str = ORG_KEY, base_url: str = BASE_URL) -> dict[str, str]:
    return {"LEADCTL_TOKEN": token, "LEADCTL_BASE_URL": base_url}

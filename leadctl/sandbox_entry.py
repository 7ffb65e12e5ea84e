"""leadctl's one way into the sandbox (the ``leadctl_sandbox`` package).

No other leadctl module imports ``leadctl_sandbox`` (tests/sandbox/test_import_boundary.py
guards it), and ``leadctl_sandbox`` imports nothing of leadctl but ``leadctl.util``: the
sandbox is known to leadctl through what this module offers and the contract it
publishes. The sandbox's imports stay inside the functions, so loading this module costs
nothing at start-up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from leadctl.errors import LeadctlError, UsageError
from leadctl.iostreams import IOStreams


@contextlib.contextmanager
def _as_leadctl_errors() -> Iterator[None]:
    """The sandbox's errors as leadctl's: usage errors exit 2, the rest 1, never a traceback."""
    from leadctl_sandbox.errors import SandboxError, SandboxUsageError

    try:
        yield
    except SandboxUsageError as error:
        raise UsageError(error.message, hint=error.hint) from None
    except SandboxError as error:
        raise LeadctlError(error.message, hint=error.hint) from None


class EmbeddedSandbox:
    """The sandbox's app answering this process's client (``--profile sandbox``) through
    ``transport``, with its state in the user data dir, seeded on first use."""

    def __init__(self, *, env: Mapping[str, str]) -> None:
        self._env = env
        self._inner: Any = None
        self.base_url = ""
        self.org_key = ""
        self.transport: Any = None

    def start(self) -> None:
        from leadctl.config.dir_paths import dir_path
        from leadctl_sandbox.embedded import InProcessSandbox as Inner

        # leadctl's data dir as leadctl names it, so the sandbox need not load platformdirs
        # to find the same dir (None: only platformdirs can tell, and the sandbox asks it).
        data_dir = dir_path("data", self._env)
        env = self._env if data_dir is None else {**self._env, "LEADCTL_DATA_DIR": data_dir}
        inner = Inner(env=env)
        with _as_leadctl_errors():
            inner.start()
        self._inner = inner
        self.base_url = inner.base_url
        self.org_key = inner.org_key
        self.transport = inner.transport

    def stop(self) -> None:
        if self._inner is not None:
            self._inner.stop()
            self._inner = None


class SandboxOnDemand:
    """The embedded sandbox of one invocation: started when a command first needs it, after
    the user is told what it ignores (``notice``), and stopped when the invocation ends."""

    def __init__(
        self, env: Mapping[str, str], *, notice: str | None, info: Callable[[str], None]
    ) -> None:
        self._env = env
        self._notice = notice
        self._info = info
        self._running: EmbeddedSandbox | None = None

    def running(self) -> EmbeddedSandbox:
        if self._running is None:
            if self._notice:
                self._info(self._notice)
            sandbox = EmbeddedSandbox(env=self._env)
            sandbox.start()
            self._running = sandbox
        return self._running

    @property
    def started(self) -> bool:
        return self._running is not None

    def stop(self) -> None:
        if self._running is not None:
            self._running.stop()
            self._running = None


def serve(*, ios: IOStreams, env: Mapping[str, str], as_json: bool, **options: Any) -> None:
    """``sandbox serve``: run in the foreground until Ctrl-C or SIGTERM. ``options`` are the
    fields of ``leadctl_sandbox.serve.ServeOptions``."""
    from leadctl_sandbox.serve import ServeOptions
    from leadctl_sandbox.serve import serve as run

    with _as_leadctl_errors():
        run(ServeOptions(**options), ios=ios, env=env, as_json=as_json)


def default_state_dir(env: Mapping[str, str]) -> Path:
    from leadctl_sandbox.state import default_state_dir as state_dir

    return state_dir(env)


def has_state(state_dir: Path) -> bool:
    from leadctl_sandbox.serve import has_state as found

    return found(state_dir)


def check_not_served(state_dir: Path) -> None:
    """A LeadctlError naming the pid when a ``sandbox serve`` holds the state at ``state_dir``."""
    from leadctl_sandbox.serve import check_not_served as check

    with _as_leadctl_errors():
        check(state_dir)


def reset(state_dir: Path) -> bool:
    """Remove the sandbox's state files at ``state_dir``; True when there were any. Refused
    (LeadctlError naming the pid) while a ``sandbox serve`` holds them."""
    from leadctl_sandbox.serve import reset as wipe

    with _as_leadctl_errors():
        return wipe(state_dir)


def published_contract() -> bytes:
    """The OpenAPI document the sandbox publishes at ``GET /openapi.json`` (no server needed)."""
    from leadctl_sandbox.published import published_bytes

    return published_bytes()

"""Run ``leadctl sandbox serve`` as a subprocess for tests, over a real 127.0.0.1 socket.

    from tests.support.sandbox_server import start_sandbox

    with start_sandbox() as sandbox:            # memory state, seed 7, faults on
        sandbox.base_url                        # "http://127.0.0.1:PORT"
        sandbox.credentials.org                 # "sk_..." (also .user, .read_only_user,
                                                #  .sources {source id: source key})
        env = sandbox.env(sandbox.credentials.org)   # LEADCTL_BASE_URL + LEADCTL_TOKEN
        sandbox.add_fault("/leads", "drop-after", method="POST")
        sandbox.requests()                      # what the server received

The server listens on port 0 (a free port) and prints one JSON line when ready; that line
is parsed here and never echoed. Credentials are hidden from ``repr`` so a failing assert
does not print them.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import httpx

DEFAULT_SEED = 7
DEFAULT_INTAKE_DELAY = 0.2
START_TIMEOUT = 30.0


@dataclass(frozen=True, repr=False)
class SandboxCredentials:
    org: str
    user: str
    read_only_user: str
    sources: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"SandboxCredentials(<hidden>, sources={sorted(self.sources)})"

    @property
    def source(self) -> str:
        """The key of the oldest source that still has its demo key ("Website form": enabled,
        no allowlists, no consent certificate needed, unless rotated)."""
        return next(iter(self.sources.values()))


@dataclass(repr=False)
class SandboxProcess:
    base_url: str
    credentials: SandboxCredentials
    process: subprocess.Popen[bytes]
    data_dir: Path | None
    faults: bool
    stderr_path: Path
    _workdir: tempfile.TemporaryDirectory[str] | None = None
    # {"url", "secret"} of --webhook-url deliveries, when the sandbox was started with it.
    webhooks: dict[str, str] | None = None

    def __repr__(self) -> str:
        return f"SandboxProcess({self.base_url}, pid={self.process.pid})"

    def __enter__(self) -> SandboxProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- talking to it -----------------------------------------------------------------

    def url(self, path: str) -> str:
        return self.base_url + path

    def headers(self, credential: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {credential or self.credentials.org}"}

    def client(self, credential: str | None = None, **kwargs: Any) -> httpx.Client:
        """An httpx client on the base URL, authenticated with ``credential`` (default: org)."""
        kwargs.setdefault("timeout", 10.0)
        return httpx.Client(base_url=self.base_url, headers=self.headers(credential), **kwargs)

    def env(self, credential: str | None = None) -> dict[str, str]:
        """Environment for running leadctl against this sandbox."""
        return {
            "LEADCTL_BASE_URL": self.base_url,
            "LEADCTL_TOKEN": credential or self.credentials.org,
        }

    # -- control endpoints (need faults=True) -------------------------------------------

    def _control(self, method: str, path: str, body: Any = None) -> Any:
        if not self.faults:
            raise RuntimeError("start the sandbox with faults=True to use /_sandbox/ endpoints")
        response = httpx.request(method, self.url(path), json=body, timeout=10.0)
        response.raise_for_status()
        return response.json() if response.content else None

    def info(self) -> dict[str, Any]:
        """Demo data identifiers: organization, users, sources, automations, phone numbers."""
        found: dict[str, Any] = self._control("GET", "/_sandbox/info")
        return found

    def add_fault(
        self, path: str, action: str, *, method: str = "*", count: int | None = 1
    ) -> dict[str, Any]:
        """The next ``count`` requests to ``path`` (exact or glob) get ``action``:
        ``500``/``5xx``, ``429;retry-after=N``, ``hang=N``, ``drop`` or ``drop-after``."""
        rule: dict[str, Any] = self._control(
            "POST",
            "/_sandbox/faults",
            {"method": method, "path": path, "action": action, "count": count},
        )
        return rule

    def clear_faults(self) -> None:
        self._control("DELETE", "/_sandbox/faults")

    def requests(self) -> list[dict[str, Any]]:
        """Requests received so far: method, path, query, status, fault, operationId, ..."""
        items: list[dict[str, Any]] = self._control("GET", "/_sandbox/requests")["items"]
        return items

    def clear_requests(self) -> None:
        self._control("DELETE", "/_sandbox/requests")

    def start_run(self, outcome: str = "Completed", *, steps: int = 3) -> dict[str, Any]:
        """A run that moves one step on per read of its automation's runs, then ends as
        ``outcome`` (leadctl_sandbox/scripted_runs.py): {"automationId", "run"}."""
        started: dict[str, Any] = self._control(
            "POST", "/_sandbox/runs", {"outcome": outcome, "steps": steps}
        )
        return started

    def mint_token(self, **claims: Any) -> str:
        """A user JWT: userId, roles, expiresIn (negative: expired), otherOrganization."""
        token: str = self._control("POST", "/_sandbox/tokens", claims)["token"]
        return token

    # -- lifecycle ---------------------------------------------------------------------

    def stderr_text(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def stop(self, timeout: float = 10.0) -> int:
        """Ctrl-C the server and wait; kill it if it does not stop. Returns its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()
        if self._workdir is not None:
            self._workdir.cleanup()
            self._workdir = None
        return int(self.process.returncode)


@lru_cache(maxsize=1)
def serve_command() -> tuple[str, ...]:
    """``leadctl sandbox serve`` when the installed CLI runs it, else the module."""
    script = Path(sys.executable).with_name("leadctl")
    if script.exists():
        probe = subprocess.run(
            [str(script), "sandbox", "serve", "--help"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            # A session's probe, in dirs no test owns: the help cache must not write there.
            env={**os.environ, "LEADCTL_HELP_CACHE": "0"},
        )
        if probe.returncode == 0 and "--print-json" in probe.stdout:
            return (str(script), "sandbox", "serve", "--print-json")
    return (sys.executable, "-m", "leadctl", "sandbox", "serve", "--print-json")


def start_sandbox(
    *,
    data_dir: Path | None = None,
    seed: int | None = DEFAULT_SEED,
    faults: bool = True,
    rate_limit: float | None = None,
    intake_delay: float = DEFAULT_INTAKE_DELAY,
    extra_args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    timeout: float = START_TIMEOUT,
) -> SandboxProcess:
    """Start a sandbox on 127.0.0.1 port 0 and wait until it is ready.

    State is in memory unless ``data_dir`` is given.
    """
    args = [*serve_command(), "--host", "127.0.0.1", "--port", "0"]
    args += ["--data-dir", str(data_dir)] if data_dir is not None else ["--memory"]
    if seed is not None:
        args += ["--seed", str(seed)]
    if faults:
        args.append("--faults")
    if rate_limit is not None:
        args += ["--rate-limit", str(rate_limit)]
    args += ["--intake-delay", str(intake_delay), *extra_args]
    workdir = tempfile.TemporaryDirectory(prefix="leadctl-sandbox-")
    stderr_path = Path(workdir.name) / "stderr.txt"
    merged = dict(os.environ)
    # Never the user's own dirs: a test sandbox's default state goes to its work dir.
    merged["LEADCTL_DATA_DIR"] = str(Path(workdir.name) / "data")
    merged["LEADCTL_CONFIG_DIR"] = str(Path(workdir.name) / "config")
    merged["LEADCTL_CACHE_DIR"] = str(Path(workdir.name) / "cache")
    merged.update(env or {})
    with stderr_path.open("wb") as stderr:
        process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=stderr, stdin=subprocess.DEVNULL, env=merged
        )
    try:
        ready = _read_ready_line(process, timeout)
    except BaseException:
        process.kill()
        process.wait()
        message = stderr_path.read_text(encoding="utf-8", errors="replace")
        workdir.cleanup()
        raise RuntimeError(f"the sandbox did not start; its stderr:\n{message}") from None
    raw = ready["credentials"]
    credentials = SandboxCredentials(
        org=raw["org"], user=raw["user"], read_only_user=raw["readOnlyUser"], sources=raw["sources"]
    )
    return SandboxProcess(
        base_url=ready["baseUrl"],
        credentials=credentials,
        process=process,
        data_dir=data_dir,
        faults=faults,
        stderr_path=stderr_path,
        _workdir=workdir,
        webhooks=ready.get("webhooks"),
    )


@contextlib.contextmanager
def sandbox_server(**kwargs: Any) -> Iterator[SandboxProcess]:
    sandbox = start_sandbox(**kwargs)
    try:
        yield sandbox
    finally:
        sandbox.stop()


def _read_ready_line(process: subprocess.Popen[bytes], timeout: float) -> dict[str, Any]:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while b"\n" not in buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no ready line from the sandbox")
            if not selector.select(remaining):
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                raise RuntimeError(f"the sandbox exited with {process.wait()}")
            buffer += chunk
    line = buffer.split(b"\n", 1)[0]
    ready: dict[str, Any] = json.loads(line)
    return ready

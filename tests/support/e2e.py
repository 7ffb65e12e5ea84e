"""Running the installed ``leadctl`` as a subprocess, piped or on a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path


def leadctl_executable() -> str:
    """The console script installed in this environment (not a module import)."""
    beside_python = Path(sys.executable).parent / "leadctl"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("leadctl")
    if found is None:
        raise RuntimeError("leadctl is not installed in this environment")
    return found


@dataclass
class Completed:
    exit_code: int
    stdout: str
    stderr: str


def base_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEADCTL_")}
    for name in ("LEADCTL_CONFIG_DIR", "LEADCTL_DATA_DIR", "LEADCTL_CACHE_DIR"):
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(extra or {})
    return env


def home_env(home: Path) -> dict[str, str]:
    """leadctl's config, data and cache dirs under ``home``: each test's own
    (tests/conftest.py), and those of runs a fixture wider than one test makes, which would
    otherwise share the dirs no test owns."""
    return {
        "LEADCTL_CONFIG_DIR": str(home / "config"),
        "LEADCTL_DATA_DIR": str(home / "data"),
        "LEADCTL_CACHE_DIR": str(home / "cache"),
    }


def run_leadctl(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 60,
) -> Completed:
    """Piped mode: stdout and stderr are pipes, stdin is closed unless text is given."""
    proc = subprocess.run(
        [leadctl_executable(), *args],
        input=stdin if stdin is not None else None,
        stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True,
        text=True,
        env=base_env(env),
        timeout=timeout,
    )
    return Completed(proc.returncode, proc.stdout, proc.stderr)


def run_leadctl_tty(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    columns: int = 120,
    timeout: float = 60,
) -> Completed:
    """Terminal mode: stdout on a pseudo-terminal (stderr stays a pipe), like a person's shell."""
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    run_env = base_env({"COLUMNS": str(columns), "LINES": "200", "TERM": "xterm-256color"})
    run_env.update(env or {})
    proc = subprocess.Popen(
        [leadctl_executable(), *args],
        stdin=subprocess.DEVNULL,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=run_env,
    )
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    while True:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if data:
                chunks.append(data)
                continue
            # EOF (EIO on Linux, b"" elsewhere): every process holding the terminal closed it.
            break
        if proc.poll() is not None:
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise TimeoutError(f"leadctl {' '.join(args)} did not finish")
    os.close(master)
    assert proc.stderr is not None
    stderr = proc.stderr.read().decode("utf-8", "replace")
    proc.wait()
    stdout = b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")
    return Completed(proc.returncode, stdout, stderr)


def run_leadctl_terminal(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    columns: int = 80,
    answers: Sequence[tuple[bytes, bytes]] = (),
    timeout: float = 60,
) -> Completed:
    """stdin, stdout and stderr on one pseudo-terminal ``columns`` wide, as a person runs
    it. ``answers`` are (prompt, keys) pairs: the keys are typed once the prompt was shown
    (after the previous one). ``stdout`` holds everything the terminal showed (stderr
    included, in order); ``stderr`` is empty."""
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 200, columns, 0, 0))
    run_env = base_env({"COLUMNS": str(columns), "LINES": "200", "TERM": "xterm"})
    run_env.update(env or {})
    proc = subprocess.Popen(
        [leadctl_executable(), *args],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=run_env,
    )
    os.close(follower)
    shown = b""
    pending = list(answers)
    seen_up_to = 0
    deadline = time.monotonic() + timeout
    while True:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: every process holding the terminal closed it
                break
            if not chunk:
                break
            shown += chunk
        while pending and (found := shown.find(pending[0][0], seen_up_to)) >= 0:
            seen_up_to = found + len(pending[0][0])
            os.write(leader, pending.pop(0)[1])
        if not ready and proc.poll() is not None:
            break
        if time.monotonic() > deadline:
            proc.kill()
            raise TimeoutError(f"leadctl {' '.join(args)} did not finish: {shown[-2000:]!r}")
    os.close(leader)
    code = proc.wait(timeout=timeout)
    return Completed(code, shown.decode("utf-8", "replace").replace("\r\n", "\n"), "")

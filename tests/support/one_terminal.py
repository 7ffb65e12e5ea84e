"""The installed leadctl with stdin, stdout and stderr on one pseudo-terminal, as a person
runs it: what the terminal showed, and keys typed once a prompt appeared."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from collections.abc import Mapping, Sequence

from tests.support.e2e import base_env, leadctl_executable

TIMEOUT = 60.0


def on_a_terminal(
    args: Sequence[str],
    env: Mapping[str, str],
    *,
    keys: Sequence[bytes] = (),
    prompt: bytes = b"",
    columns: int = 120,
) -> tuple[int, str]:
    """Exit code and everything the terminal showed; ``keys`` are typed once ``prompt``
    was shown (nothing is typed without a prompt)."""
    leader, follower = pty.openpty()
    run_env = base_env(env)
    run_env.update({"TERM": "xterm", "COLUMNS": str(columns), "LINES": "200"})
    proc = subprocess.Popen(
        [leadctl_executable(), *args], stdin=follower, stdout=follower, stderr=follower, env=run_env
    )
    os.close(follower)
    shown = b""
    typed = not prompt
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end closed
                break
            if not chunk:
                break
            shown += chunk
        if not typed and prompt in shown:
            for key in keys:
                os.write(leader, key)
            typed = True
        if not ready and proc.poll() is not None:
            break
    else:
        proc.kill()
        raise AssertionError(f"leadctl did not finish; the terminal showed {shown!r}")
    os.close(leader)
    return proc.wait(timeout=TIMEOUT), shown.decode("utf-8", "replace")

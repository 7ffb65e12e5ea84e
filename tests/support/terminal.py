"""Running the installed ``leadctl`` with stdout and stderr each on a pseudo-terminal.

``run_leadctl_tty`` (tests/support/e2e.py) puts stdout on a terminal and keeps stderr a
pipe; a person's shell has both on the terminal, which is what decides whether errors are
text or JSON and what a hostile service could make the terminal do. Output processing of
the terminals is off (no LF -> CRLF), so the bytes read are the bytes leadctl wrote: a CR
in them is one leadctl (or the service, through it) wrote.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tests.support.e2e import base_env, leadctl_executable


@dataclass
class TerminalRun:
    exit_code: int
    stdout_bytes: bytes
    stderr_bytes: bytes

    @property
    def stdout(self) -> str:
        return self.stdout_bytes.decode("utf-8", "surrogateescape")

    @property
    def stderr(self) -> str:
        return self.stderr_bytes.decode("utf-8", "surrogateescape")


def _terminal() -> tuple[int, int]:
    master, slave = pty.openpty()
    attributes = termios.tcgetattr(slave)
    attributes[1] &= ~termios.OPOST  # oflag: bytes pass as written
    termios.tcsetattr(slave, termios.TCSANOW, attributes)
    os.set_blocking(master, False)
    return master, slave


class TerminalProcess:
    """``leadctl`` running with stdout and stderr on two terminals; read when it ends."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        columns: int = 120,
        stdin: str | None = None,
    ) -> None:
        run_env = base_env({"COLUMNS": str(columns), "LINES": "200", "TERM": "xterm-256color"})
        run_env.update(env or {})
        self.args = list(args)
        self._out, out_slave = _terminal()
        self._err, err_slave = _terminal()
        self.process = subprocess.Popen(
            [leadctl_executable(), *args],
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out_slave,
            stderr=err_slave,
            env=run_env,
        )
        os.close(out_slave)
        os.close(err_slave)
        if stdin is not None:
            assert self.process.stdin is not None
            self.process.stdin.write(stdin.encode("utf-8"))
            self.process.stdin.close()

    def interrupt(self) -> None:
        """Ctrl-C, as the terminal sends it to the foreground process."""
        self.process.send_signal(signal.SIGINT)

    def finish(self, timeout: float = 60) -> TerminalRun:
        chunks: dict[int, list[bytes]] = {self._out: [], self._err: []}
        open_ends = {self._out, self._err}
        deadline = time.monotonic() + timeout
        while open_ends:
            ready, _, _ = select.select(list(open_ends), [], [], 0.1)
            for fd in ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    data = b""  # EIO: every writer closed the terminal
                if data:
                    chunks[fd].append(data)
                else:
                    open_ends.discard(fd)
            if not ready and self.process.poll() is not None:
                break
            if time.monotonic() > deadline:
                self.process.kill()
                raise TimeoutError(f"leadctl {' '.join(self.args)} did not finish")
        self.process.wait()
        for fd in chunks:
            os.close(fd)
        return TerminalRun(
            self.process.returncode, b"".join(chunks[self._out]), b"".join(chunks[self._err])
        )


def run_on_terminal(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    columns: int = 120,
    stdin: str | None = None,
    timeout: float = 60,
) -> TerminalRun:
    """``leadctl args`` with stdout and stderr on two terminals; stdin is a pipe holding
    ``stdin`` (or closed), so nothing waits for a person."""
    return TerminalProcess(args, env=env, columns=columns, stdin=stdin).finish(timeout)


def run_in_pipes(
    args: Sequence[str], *, env: Mapping[str, str] | None = None, timeout: float = 60
) -> TerminalRun:
    """``leadctl args`` with stdout and stderr as pipes, read as bytes: text mode would turn
    a CR leadctl passed through into a newline."""
    proc = subprocess.run(
        [leadctl_executable(), *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=base_env(env),
        timeout=timeout,
    )
    return TerminalRun(proc.returncode, proc.stdout, proc.stderr)

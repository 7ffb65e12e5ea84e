"""``leadctl webhooks listen`` as a subprocess: started, its address read from stderr, its
delivery lines collected by a thread, stopped with a signal. Tests wait on output, never
on time."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from tests.support.e2e import base_env, leadctl_executable

START_TIMEOUT = 30.0


@dataclass
class Listener:
    process: subprocess.Popen[bytes]
    url: str = ""
    lines: list[str] = field(default_factory=list)
    stderr_lines: list[str] = field(default_factory=list)
    readers: list[threading.Thread] = field(default_factory=list)
    _changed: threading.Condition = field(default_factory=threading.Condition)

    def wait_for_lines(self, count: int, timeout: float = 30.0) -> list[str]:
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.lines) >= count, timeout):
                raise AssertionError(f"listen printed {self.lines!r}, wanted {count} lines")
            return list(self.lines)

    def wait_for_stderr(self, text: str, timeout: float = START_TIMEOUT) -> str:
        with self._changed:
            found = self._changed.wait_for(
                lambda: (
                    any(text in line for line in self.stderr_lines)
                    or self.process.poll() is not None
                ),
                timeout,
            )
            matching = [line for line in self.stderr_lines if text in line]
            if not found or not matching:
                raise AssertionError(f"no {text!r} on stderr: {self.stderr_lines!r}")
            return matching[0]

    def stop(self, sig: int = signal.SIGINT, timeout: float = 30.0) -> int:
        """Signal it, wait for its exit and for the last of its output."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        code = self.process.wait(timeout)
        for reader in self.readers:
            reader.join(timeout)
        return code

    def _collect(self, fd: int, into: list[str]) -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            with self._changed:
                into.extend(line.decode("utf-8", "replace").rstrip("\r") for line in complete)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()


@contextmanager
def listening(
    args: Sequence[str] = (), *, env: Mapping[str, str], terminal: bool = False
) -> Iterator[Listener]:
    """``leadctl webhooks listen --port 0 ARGS``; stdout piped (NDJSON) or on a terminal."""
    command = [leadctl_executable(), "webhooks", "listen", "--port", "0", *args]
    run_env = base_env(env)
    master = slave = -1
    if terminal:
        master, slave = pty.openpty()
        run_env.update({"TERM": "xterm-256color", "COLUMNS": "200", "NO_COLOR": "1"})
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=slave if terminal else subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=run_env,
    )
    if terminal:
        os.close(slave)
    listener = Listener(process)
    assert process.stderr is not None
    out_fd = master if terminal else process.stdout.fileno()  # type: ignore[union-attr]
    listener.readers = readers = [
        threading.Thread(target=listener._collect, args=(out_fd, listener.lines), daemon=True),
        threading.Thread(
            target=listener._collect,
            args=(process.stderr.fileno(), listener.stderr_lines),
            daemon=True,
        ),
    ]
    for reader in readers:
        reader.start()
    try:
        line = listener.wait_for_stderr("listening on ")
        listener.url = line.split("listening on ", 1)[1].split(",", 1)[0].strip()
        yield listener
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for reader in readers:
            reader.join(10)
        if terminal:
            os.close(master)

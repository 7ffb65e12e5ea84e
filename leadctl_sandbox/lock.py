"""Who holds a state dir: ``sandbox serve`` keeps an exclusive lock on ``serve.lock`` (with its
pid in it) for as long as it runs, and ``sandbox reset`` takes the same lock to wipe, so a
reset never pulls the state from under a running server.

The lock is the OS's (flock), so it goes with the process, however it ends: a stale file
left by a killed server locks nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from leadctl_sandbox.errors import SandboxError

LOCK_FILE = "serve.lock"


class StateInUse(SandboxError):
    def __init__(self, state_dir: Path, pid: int | None) -> None:
        who = f"pid {pid}" if pid else "another process"
        super().__init__(
            f"the sandbox state at {state_dir} is in use by `leadctl sandbox serve` ({who})",
            hint=f"stop that server first (Ctrl-C in its terminal, or kill {pid if pid else 'it'})",
        )
        self.pid = pid


def _try_lock(fd: int) -> bool:
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _read_pid(fd: int) -> int | None:
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 32).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


@contextlib.contextmanager
def holding(state_dir: Path) -> Iterator[None]:
    """Hold the state dir's lock (creating the dir) with this process's pid in the file;
    :class:`StateInUse` naming the holder's pid when another process has it."""
    state_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = state_dir / LOCK_FILE
    fd = _locked_fd(state_dir, path)
    try:
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        try:
            yield
        finally:
            # Removed while still locked: whoever opens the path next gets a new file.
            with contextlib.suppress(OSError):
                path.unlink()
    finally:
        os.close(fd)


def _locked_fd(state_dir: Path, path: Path) -> int:
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        if not _try_lock(fd):
            pid = _read_pid(fd)
            os.close(fd)
            raise StateInUse(state_dir, pid)
        # The holder before us may have removed the file between our open and our lock:
        # then the lock is on a file nobody else will see; open the path afresh.
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)

"""Files replaced atomically and created 0600: readers see the old file or the complete new
one, never a partial one, and nobody else on the machine can read what it holds."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class AtomicFile:
    """A temporary file beside ``path``, made before its content is known.

    Creating it first proves the directory is writable while nothing has changed yet (a
    rotated secret must not be lost to an unwritable directory afterwards); :meth:`commit`
    then writes, syncs and renames it over ``path``. The constructor raises OSError when
    the temporary file cannot be created.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        fd, name = _create_private(path)
        self._fd: int | None = fd
        self._tmp: str | None = name

    def commit(self, data: bytes, *, durable: bool = True) -> None:
        """Write ``data`` and put the file in place; OSError when that fails (the target is
        then untouched; :meth:`discard` removes the temporary file). ``durable=False``
        skips waiting for the disk (a cache whose files check themselves: a few ms)."""
        if self._fd is None or self._tmp is None:
            raise RuntimeError(f"{self.path}: already committed or discarded")
        fd, self._fd = self._fd, None
        if durable:
            write_synced(fd, data)
        else:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        os.replace(self._tmp, self.path)
        self._tmp = None
        if durable:
            sync_dir(self.path.parent)

    def discard(self) -> None:
        """Remove the temporary file when :meth:`commit` did not happen; idempotent."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        if self._tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._tmp)
            self._tmp = None


def write_synced(fd: int, data: bytes) -> None:
    """Write ``data`` to the open descriptor ``fd``, wait until it is on disk, close it."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def sync_dir(directory: Path) -> None:
    # Makes a rename itself durable; not possible (nor needed) on every platform.
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _create_private(path: Path) -> tuple[int, str]:
    """A new 0600 file beside ``path`` under a name nobody else chose, as tempfile.mkstemp
    makes one (O_EXCL: never an existing file or link), without importing tempfile, which
    costs start-up about 2 ms: leadctl writes files on that path (the profile-keys memo)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        name = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            # The mode is filtered by the umask, which can only take permissions away.
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")

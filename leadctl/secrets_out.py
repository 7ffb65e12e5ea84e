"""Keeping a newly issued secret safe: the 0600 ``--secret-file``, recovery files, and
Ctrl-C deferred while the secret exists only in memory.

A rotated source key is returned once; the old one is already invalid. Everything here
serves one rule: once the service has answered, the new secret reaches a file, the keyring
or stdout, whatever else goes wrong.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import FrameType
from typing import TextIO

from leadctl.errors import LeadctlError, UsageError
from leadctl.util.atomic import AtomicFile, write_synced
from leadctl.util.sigint import sigint_handled_by

RECOVERY_DIR = "recovered-secrets"
_UNSAFE_NAME_CHARS = re.compile(r"[^A-Za-z0-9_.-]+")


# -- --secret-file ------------------------------------------------------------------------


def check_secret_file(raw: str) -> Path:
    """The target of ``--secret-file``, checked before anything is sent.

    A symbolic link or anything but a regular file is refused: writing through a link
    could put the secret somewhere the user did not name (``/dev/stdout``, a shared dir).
    """
    if not raw.strip():
        raise UsageError("--secret-file needs a file path")
    path = Path(raw).expanduser()
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise UsageError(f"--secret-file {raw}: {error.strerror}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise UsageError(
            f"--secret-file {raw} is a symbolic link; leadctl does not write secrets through links",
            hint="give the path of the real file",
        )
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError(f"--secret-file {raw} exists and is not a regular file")
    if not path.parent.is_dir():
        raise UsageError(f"--secret-file {raw}: the directory {path.parent} does not exist")
    return path


class PendingSecretFile(AtomicFile):
    """The ``--secret-file`` as a temporary file beside the target, created before the
    request is sent: an unwritable directory is a usage error while nothing has changed."""

    def __init__(self, path: Path) -> None:
        try:
            super().__init__(path)
        except OSError as error:
            raise UsageError(
                f"--secret-file {path}: cannot write in {path.parent}: {error.strerror}"
            ) from None


# -- recovery files ---------------------------------------------------------------------


def recovery_dir(env: Mapping[str, str]) -> Path:
    from leadctl.config import data_dir

    return data_dir(env) / RECOVERY_DIR


def write_recovery_file(env: Mapping[str, str], *, label: str, data: bytes, now: datetime) -> Path:
    """Keep ``data`` in a new 0600 file under the data dir (directory 0700); its path.

    Never replaces an earlier recovery file: each may hold the only copy of a secret.
    """
    from leadctl.config import ensure_private_dir

    directory = recovery_dir(env)
    ensure_private_dir(directory)
    stamp = now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    stem = f"{_UNSAFE_NAME_CHARS.sub('_', label).strip('._') or 'secret'}-{stamp}"
    for attempt in range(1, 1000):
        path = directory / (f"{stem}.secret" if attempt == 1 else f"{stem}-{attempt}.secret")
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError as error:
            raise LeadctlError(f"cannot create {path}: {error.strerror}") from None
        try:
            write_synced(fd, data)
        except OSError as error:
            raise LeadctlError(f"cannot write {path}: {error.strerror}") from None
        return path
    raise LeadctlError(f"cannot create a recovery file in {directory}: too many files")


# -- stdout that went away --------------------------------------------------------------


def silence_stdout(stream: TextIO) -> None:
    """After a write to a closed pipe failed: point fd 1 at /dev/null, so the
    interpreter's final flush of what is still buffered cannot fail noisily."""
    if stream is not sys.stdout:
        return
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


# -- Ctrl-C -----------------------------------------------------------------------------


@dataclass
class Interrupts:
    """How many SIGINTs arrived while they were deferred."""

    received: int = 0


@contextlib.contextmanager
def deferred_sigint(notice: Callable[[], None] | None = None) -> Iterator[Interrupts]:
    """Record SIGINT instead of raising KeyboardInterrupt until the block ends.

    The caller decides what to do with a recorded interrupt once the secret is safe.
    ``notice`` runs on the first one (from the signal handler, so it must only do
    something async-safe such as ``os.write``). Outside the main thread signals cannot
    be handled and nothing is deferred.
    """
    state = Interrupts()

    def record(_signum: int, _frame: FrameType | None) -> None:
        state.received += 1
        if state.received == 1 and notice is not None:
            notice()

    with sigint_handled_by(record):
        yield state


def stderr_notice(stream: TextIO, message: str) -> Callable[[], None]:
    """A ``deferred_sigint`` notice writing straight to the stream's descriptor: a signal
    handler must not re-enter the buffered writer it may have interrupted."""

    def write() -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.write(stream.fileno(), (message + "\n").encode("utf-8", "replace"))

    return write

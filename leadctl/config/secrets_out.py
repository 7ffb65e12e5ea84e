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

from leadctl.config.dirs import data_dir
from leadctl.config.private_files import ensure_private_dir
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


class UnsafeDirectory(LeadctlError):
    """A directory a secret must not be written into: a link, someone else's, or open to
    others (who could delete or replace what leadctl writes there)."""


def recovery_dir(env: Mapping[str, str]) -> Path:

    return data_dir(env) / RECOVERY_DIR


def write_recovery_file(
    env: Mapping[str, str],
    *,
    label: str,
    data: bytes,
    now: datetime,
    warn: Callable[[str], None] | None = None,
) -> Path:
    """Keep ``data`` in a new 0600 file under the data dir's ``recovered-secrets/``; its path.

    Never replaces an earlier recovery file: each may hold the only copy of a secret. The
    directory must be a real directory of this user's, 0700 (leadctl creates it so): one
    that is a symbolic link, someone else's or open to others is refused, and the file goes
    to a new private directory under the system's temporary directory instead (``warn``
    says why). The secret is never written to stderr: that is where cron mail and CI logs
    come from, the places a secret file exists to keep it out of.
    """

    directory = recovery_dir(env)
    stem = _recovery_stem(label, now)
    try:
        ensure_private_dir(directory)
        return _write_new_file(directory, stem, data)
    except UnsafeDirectory as refused:
        import tempfile

        try:
            fallback = Path(tempfile.mkdtemp(prefix="leadctl-recovered-"))
        except OSError as error:
            raise LeadctlError(
                f"{refused.message}; no private temporary directory either: {error.strerror}"
            ) from None
        if warn is not None:
            warn(f"{refused.message}; using {fallback} (0700) instead")
        return _write_new_file(fallback, stem, data)


def _recovery_stem(label: str, now: datetime) -> str:
    stamp = now.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{_UNSAFE_NAME_CHARS.sub('_', label).strip('._') or 'secret'}-{stamp}"


def _write_new_file(directory: Path, stem: str, data: bytes) -> Path:
    """A new 0600 file in ``directory``, opened through a descriptor of the directory that
    was checked: swapping the directory for a link after the check changes nothing."""
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError as error:
        if os.path.islink(directory):
            raise UnsafeDirectory(f"{directory} is a symbolic link") from None
        raise LeadctlError(f"cannot open {directory}: {error.strerror}") from None
    try:
        _check_private(directory, os.fstat(dir_fd))
        for attempt in range(1, 1000):
            name = f"{stem}.secret" if attempt == 1 else f"{stem}-{attempt}.secret"
            try:
                fd = os.open(
                    name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=dir_fd
                )
            except FileExistsError:
                continue
            except OSError as error:
                raise LeadctlError(f"cannot create {directory / name}: {error.strerror}") from None
            try:
                write_synced(fd, data)
            except OSError as error:
                raise LeadctlError(f"cannot write {directory / name}: {error.strerror}") from None
            return directory / name
    finally:
        os.close(dir_fd)
    raise LeadctlError(f"cannot create a recovery file in {directory}: too many files")


def _check_private(directory: Path, info: os.stat_result) -> None:
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeDirectory(f"{directory} is not a directory")
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        raise UnsafeDirectory(f"{directory} belongs to another user (uid {info.st_uid})")
    if info.st_mode & 0o077:
        raise UnsafeDirectory(
            f"{directory} is open to others (mode {stat.S_IMODE(info.st_mode):04o}, not 0700)"
        )


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

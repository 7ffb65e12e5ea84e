"""The dirs and files leadctl makes for itself: dirs 0700, files 0600 and replaced
atomically. Kept out of ``settings`` because the contract store writes with them and is read
on every command's start-up, where parsing the config is not wanted."""

from __future__ import annotations

import os
from pathlib import Path

from leadctl.errors import LeadctlError


def ensure_private_dir(path: Path) -> None:
    """Create ``path`` (and parents) if missing; a directory leadctl creates is 0700."""
    if path.is_dir():
        return
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        # mkdir's mode is filtered by the umask; the final permission must not be.
        os.chmod(path, 0o700)
    except OSError as error:
        raise LeadctlError(f"cannot create the directory {path}: {error.strerror}") from None


def write_private_file(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` atomically with a 0600 file holding ``data`` (readers see the old
    file or the new one, never a partial one); ``durable=False``: not synced to disk."""
    from leadctl.util.atomic import AtomicFile

    pending = AtomicFile(path)
    try:
        pending.commit(data, durable=durable)
    except OSError as error:
        raise LeadctlError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        pending.discard()

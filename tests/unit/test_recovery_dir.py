"""A recovery file holds the only copy of a new key: it is written only into a directory that is
this user's own, 0700 and not a link (issue 22 point 6). Any other ``recovered-secrets/`` is
refused, and the key goes to a new private directory under the system's temporary directory,
with a warning saying why and where; never to stderr."""

from __future__ import annotations

import os
import stat
from datetime import datetime, timezone
from pathlib import Path

import pytest

from leadctl.config.secrets_out import RECOVERY_DIR, write_recovery_file

NOW = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
SECRET = b"srckey_new_0123456789abcdef\n"


def recover(data_dir: Path, warnings: list[str]) -> Path:
    return write_recovery_file(
        {"LEADCTL_DATA_DIR": str(data_dir)},
        label="s1",
        data=SECRET,
        now=NOW,
        warn=warnings.append,
    )


def assert_private(path: Path) -> None:
    assert path.read_bytes() == SECRET
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    parent = path.parent.lstat()
    assert stat.S_ISDIR(parent.st_mode) and stat.S_IMODE(parent.st_mode) == 0o700
    assert parent.st_uid == os.getuid()


def test_the_usual_directory_is_created_0700_and_used(tmp_path: Path) -> None:
    warnings: list[str] = []
    path = recover(tmp_path, warnings)
    assert path.parent == tmp_path / RECOVERY_DIR
    assert_private(path)
    assert warnings == []


def test_a_world_writable_directory_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / RECOVERY_DIR
    shared.mkdir()
    shared.chmod(0o777)
    warnings: list[str] = []

    path = recover(tmp_path, warnings)

    assert path.parent != shared
    assert list(shared.iterdir()) == []
    assert_private(path)
    (warning,) = warnings
    assert "open to others" in warning and str(path.parent) in warning


def test_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / RECOVERY_DIR).symlink_to(elsewhere)
    warnings: list[str] = []

    path = recover(tmp_path, warnings)

    assert list(elsewhere.iterdir()) == []
    assert_private(path)
    assert "symbolic link" in warnings[0]


@pytest.mark.skipif(os.getuid() != 0, reason="only root can give a directory to another user")
def test_another_users_directory_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / RECOVERY_DIR
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 4242, -1)
    warnings: list[str] = []

    path = recover(tmp_path, warnings)

    assert path.parent != theirs
    assert_private(path)
    assert "another user" in warnings[0]

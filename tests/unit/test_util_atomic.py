"""Atomic 0600 writes, written once for the config, credentials, contracts and --secret-file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from leadctl.util.atomic import AtomicFile


@pytest.fixture
def open_umask() -> Iterator[None]:
    # The mode must not depend on the umask: with 000, a plain open() would make 0666.
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    # Its own directory: the suite's fixtures put a home directory in tmp_path.
    path = tmp_path / "folder"
    path.mkdir()
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_commit_replaces_the_file_with_a_0600_one(folder: Path, open_umask: None) -> None:
    target = folder / "token"
    target.write_bytes(b"old")
    target.chmod(0o644)
    pending = AtomicFile(target)
    # Until the commit, readers still see the old file whole.
    assert target.read_bytes() == b"old"
    pending.commit(b"new secret")
    assert target.read_bytes() == b"new secret"
    assert mode(target) == 0o600
    assert sorted(p.name for p in folder.iterdir()) == ["token"]


def test_the_temporary_file_is_0600_before_anything_is_written(
    folder: Path, open_umask: None
) -> None:
    pending = AtomicFile(folder / "token")
    [temporary] = list(folder.iterdir())
    assert temporary.name.startswith(".token.")
    assert mode(temporary) == 0o600
    pending.discard()
    assert list(folder.iterdir()) == []


def test_a_failed_commit_leaves_the_target_as_it_was_and_no_partial_file(
    folder: Path,
) -> None:
    # A directory where the file should go: the final rename fails after the data was written.
    target = folder / "token"
    target.mkdir()
    (target / "kept").write_bytes(b"untouched")
    pending = AtomicFile(target)
    with pytest.raises(OSError):
        pending.commit(b"secret")
    pending.discard()
    assert sorted(p.name for p in folder.iterdir()) == ["token"]
    assert (target / "kept").read_bytes() == b"untouched"


def test_a_directory_that_cannot_be_written_fails_before_anything_changes(
    folder: Path,
) -> None:
    with pytest.raises(OSError):
        AtomicFile(folder / "missing" / "token")
    assert list(folder.iterdir()) == []


def test_commit_happens_once(folder: Path) -> None:
    pending = AtomicFile(folder / "token")
    pending.commit(b"one")
    with pytest.raises(RuntimeError):
        pending.commit(b"two")
    pending.discard()  # idempotent, and does not remove the committed file
    assert (folder / "token").read_bytes() == b"one"


def test_write_private_file_reports_a_failed_write_and_leaves_nothing(folder: Path) -> None:
    from leadctl.config.private_files import write_private_file
    from leadctl.errors import LeadctlError

    target = folder / "config.toml"
    target.mkdir()
    with pytest.raises(LeadctlError, match="cannot write"):
        write_private_file(target, b"x = 1\n")
    assert sorted(p.name for p in folder.iterdir()) == ["config.toml"]

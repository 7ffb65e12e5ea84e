"""``sandbox reset``'s ``run(opts, ctx)`` called directly: it asks, then wipes only the state."""

from __future__ import annotations

from pathlib import Path

import pytest

from leadctl.commands.sandbox.reset import Options, run
from leadctl.errors import UsageError
from leadctl_sandbox.db import DB_FILE
from tests.support.run_context import direct_context, stderr_of


def test_reset_without_yes_off_a_terminal_is_refused_and_keeps_the_state(tmp_path: Path) -> None:
    (tmp_path / DB_FILE).write_bytes(b"state")
    with pytest.raises(UsageError, match="confirmation needed"):
        run(Options(data_dir=tmp_path), direct_context())
    assert (tmp_path / DB_FILE).read_bytes() == b"state"


def test_reset_with_yes_removes_the_state_files_only(tmp_path: Path) -> None:
    (tmp_path / DB_FILE).write_bytes(b"state")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    ctx = direct_context()
    run(Options(data_dir=tmp_path, yes=True), ctx)
    assert not (tmp_path / DB_FILE).exists()
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert f"sandbox state removed: {tmp_path}" in stderr_of(ctx)


def test_reset_of_a_dir_without_state_says_so(tmp_path: Path) -> None:
    ctx = direct_context()
    run(Options(data_dir=tmp_path / "none"), ctx)
    assert f"no sandbox state at {tmp_path / 'none'}" in stderr_of(ctx)

"""leadctl among real shells, terminals, man, keyrings, cron and installers.

These tests drive the programs themselves (bash, zsh, fish, tmux, mandoc, man,
dbus-run-session, gnome-keyring-daemon, uv); `.ci/run` installs them. A test whose
program is missing is skipped with the program's name, never silently passed. The
session's ``sandbox`` comes from tests/support/sandbox_fixtures.py.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def require(*programs: str) -> None:
    """Skip the test unless every program is on PATH."""
    missing = [name for name in programs if shutil.which(name) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (.ci/run installs them)")


class SecretEnv(dict[str, str]):
    """Environment variables whose repr hides credentials: pytest prints fixture values
    and locals of a failing test, and a key in test output is a key in CI logs."""

    def __repr__(self) -> str:
        shown = {k: "<hidden>" if k == "LEADCTL_TOKEN" else v for k, v in self.items()}
        return f"SecretEnv({shown!r})"

"""Fixtures of the ``sources`` tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    """An empty directory for secret files (tmp_path also holds the isolated home)."""
    directory = tmp_path / "out"
    directory.mkdir()
    return directory

"""Every test runs with its own config and data dirs and none of the user's LEADCTL_* vars."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import hypothesis_profiles
from tests.support.imported_contracts import ImportedContracts

hypothesis_profiles.register()


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in list(os.environ):
        if name.startswith("LEADCTL_") or name in ("NO_COLOR", "FORCE_COLOR", "PAGER"):
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("LEADCTL_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("LEADCTL_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("LEADCTL_CACHE_DIR", str(home / "cache"))
    monkeypatch.setenv("COLUMNS", "120")
    # A test that reaches the real OS keyring by accident fails loudly instead.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    yield home


@pytest.fixture(scope="session")
def imported_contracts(tmp_path_factory: pytest.TempPathFactory) -> ImportedContracts:
    """Contracts imported once per session (per xdist worker), copied in where a test asks."""
    return ImportedContracts(tmp_path_factory.mktemp("imported-contracts"))

"""Fixtures shared by the unit tests."""

from __future__ import annotations

from collections.abc import Callable

import keyring
import keyring.core
import pytest
from keyring.backend import KeyringBackend

from tests.support.keyrings import DictKeyring


@pytest.fixture
def use_keyring(monkeypatch: pytest.MonkeyPatch) -> Callable[[KeyringBackend], KeyringBackend]:
    """Installs a keyring backend for one test and restores the previous one afterwards."""
    monkeypatch.setattr(keyring.core, "_keyring_backend", keyring.core._keyring_backend)

    def install(backend: KeyringBackend) -> KeyringBackend:
        keyring.set_keyring(backend)
        return backend

    return install


@pytest.fixture
def memory_keyring(use_keyring: Callable[[KeyringBackend], KeyringBackend]) -> DictKeyring:
    backend = DictKeyring()
    use_keyring(backend)
    return backend

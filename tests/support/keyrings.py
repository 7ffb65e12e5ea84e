"""Keyring backends for tests: real keyring.backend.KeyringBackend classes, not leadctl code."""

from __future__ import annotations

import time

import keyring.errors
from keyring.backend import KeyringBackend


class DictKeyring(KeyringBackend):
    """A working keyring that keeps passwords in memory."""

    # Below the fail backend, so keyring's own discovery never picks it.
    priority = -10

    def __init__(self) -> None:
        super().__init__()
        self.store: dict[tuple[str, str], str] = {}
        self.calls: list[str] = []

    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        return self.store.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls.append("set")
        self.store[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.calls.append("delete")
        if (service, username) not in self.store:
            raise keyring.errors.PasswordDeleteError("not found")
        del self.store[(service, username)]


class RaisingKeyring(DictKeyring):
    """Every call fails with the given keyring error."""

    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    def get_password(self, service: str, username: str) -> str | None:
        self.calls.append("get")
        raise self.error

    def set_password(self, service: str, username: str, password: str) -> None:
        self.calls.append("set")
        raise self.error

    def delete_password(self, service: str, username: str) -> None:
        self.calls.append("delete")
        raise self.error


class HangingKeyring(DictKeyring):
    """A keyring waiting on an unlock dialog nobody answers."""

    def get_password(self, service: str, username: str) -> str | None:
        time.sleep(10)
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        time.sleep(10)

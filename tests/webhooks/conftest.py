"""The unit suite's keyring fixtures (a real in-memory keyring backend), for `secret set`."""

from tests.unit.conftest import memory_keyring, use_keyring

__all__ = ["memory_keyring", "use_keyring"]

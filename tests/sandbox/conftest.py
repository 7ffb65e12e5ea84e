"""Sandbox tests talk to a real ``leadctl sandbox serve`` subprocess over 127.0.0.1: the
session's ``sandbox`` and a test's own ``fresh_sandbox`` come from
tests/support/sandbox_fixtures.py; what the sandbox's own tests read it with is here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess


@pytest.fixture(scope="module")
def info(sandbox: SandboxProcess) -> dict[str, Any]:
    return sandbox.info()


@pytest.fixture
def api(sandbox: SandboxProcess) -> Iterator[httpx.Client]:
    """An httpx client with the organization key."""
    with sandbox.client() as client:
        yield client

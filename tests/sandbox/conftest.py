"""Sandbox tests talk to a real ``leadctl sandbox serve`` subprocess over 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.sandbox_server import SandboxProcess, sandbox_server


@pytest.fixture(scope="session")
def sandbox() -> Iterator[SandboxProcess]:
    """One shared server (memory state, seed 7, faults on); tests must not depend on order."""
    with sandbox_server() as server:
        yield server


@pytest.fixture
def fresh_sandbox() -> Iterator[SandboxProcess]:
    """A server of the test's own, for tests that change credentials or global state."""
    with sandbox_server() as server:
        yield server


@pytest.fixture(scope="session")
def info(sandbox: SandboxProcess) -> dict[str, Any]:
    return sandbox.info()


@pytest.fixture
def api(sandbox: SandboxProcess) -> Iterator[httpx.Client]:
    """An httpx client with the organization key."""
    with sandbox.client() as client:
        yield client


@pytest.fixture(autouse=True)
def _no_leftover_faults(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "sandbox" in request.fixturenames:
        request.getfixturevalue("sandbox").clear_faults()

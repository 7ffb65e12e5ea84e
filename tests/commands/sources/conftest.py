"""Fixtures of the ``sources`` tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.sandbox_fixtures import CredentialEnv
from tests.support.sandbox_server import SandboxProcess, sandbox_server


@pytest.fixture
def out_dir(tmp_path: Path) -> Path:
    """An empty directory for secret files (tmp_path also holds the isolated home)."""
    directory = tmp_path / "out"
    directory.mkdir()
    return directory


# The end-to-end tests rotate intake keys and change intake rules (allowlists, consent),
# which would break other modules' intake tests on the shared session sandbox: each module
# gets a server of its own (module scope: one start a module).
@pytest.fixture(scope="module")
def own_sandbox() -> Iterator[SandboxProcess]:
    with sandbox_server() as server:
        yield server


@pytest.fixture(scope="module")
def source_id(own_sandbox: SandboxProcess) -> str:
    """A demo source whose intake accepts any lead, so key checks test only the key."""
    chosen = sorted(own_sandbox.credentials.sources)[0]
    with own_sandbox.client() as client:
        response = client.put(
            f"/sources/{chosen}",
            json={"allowedStates": [], "allowedProducts": [], "requiresConsentCertificate": False},
        )
        response.raise_for_status()
    return chosen


@pytest.fixture
def org_env_own(own_sandbox: SandboxProcess) -> CredentialEnv:
    return CredentialEnv(own_sandbox.env(own_sandbox.credentials.org))

"""The fault suite runs the installed leadctl against ``leadctl sandbox serve --faults``.

Each module gets a sandbox of its own (the ``sandbox`` fixture here is module-scoped), so
what one module writes cannot change the data another compares; tests inside a module run
in order and clear the request log and the fault rules around themselves.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.sandbox_server import SandboxProcess, sandbox_server


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxProcess]:
    with sandbox_server() as server:
        yield server


@pytest.fixture(autouse=True)
def _clean_slate(request: pytest.FixtureRequest) -> Iterator[None]:
    if "sandbox" not in request.fixturenames:
        yield
        return
    server: SandboxProcess = request.getfixturevalue("sandbox")
    server.clear_faults()
    server.clear_requests()
    yield
    server.clear_faults()

"""Fixtures of the installed ``leadctl`` against a sandbox over a real 127.0.0.1 socket
(a pytest plugin, registered in tests/conftest.py).

    def test_something(sandbox: SandboxProcess, org_env: dict[str, str], env_for) -> None:
        result = run_leadctl(["lead-statuses", "list"], env=org_env)
        refused = run_leadctl(["lead-statuses", "list"], env=source_env)

``sandbox`` is one server for the whole session (memory state, seed 7, faults on; one more
each for tests/sandbox/ and tests/shell/, see ``_neighbourhood``), so a test must not
depend on what other tests did to it: create what you check, and filter to it.
``fresh_sandbox`` is a server of the test's own, for tests that change credentials or
global state. Each test still has its own LEADCTL_CONFIG_DIR and LEADCTL_DATA_DIR (the
autouse fixture of tests/conftest.py; tests/support/e2e.py passes them on). The
environments from ``org_env`` and ``env_for`` print LEADCTL_TOKEN as ``<hidden>`` when
pytest shows a failing test's arguments. Faults added with ``sandbox.add_fault`` are
cleared after each test that asked for ``sandbox``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.support.sandbox_server import SandboxProcess, sandbox_server

# Which tests share one server. tests/sandbox/ and tests/shell/ read what the server holds as
# a whole (a tag by its name, the first page of every lead, a table of 60 rows), so the leads
# and tags the verbs' end-to-end tests create must not reach their server: each folder has
# one of its own; every other test (tests/e2e/, tests/commands/, ...) shares the third.
_OWN_SERVER_FOLDERS = ("sandbox", "shell")
_TESTS = Path(__file__).resolve().parents[1]


def _neighbourhood(path: Path) -> str:
    parts = path.resolve().relative_to(_TESTS).parts
    return parts[0] if parts and parts[0] in _OWN_SERVER_FOLDERS else "verbs"


@pytest.fixture(scope="session")
def _sandbox_servers() -> Iterator[Callable[[str], SandboxProcess]]:
    """The session's servers by neighbourhood, each started when first asked for."""
    with ExitStack() as stack:
        servers: dict[str, SandboxProcess] = {}

        def server(neighbourhood: str) -> SandboxProcess:
            if neighbourhood not in servers:
                servers[neighbourhood] = stack.enter_context(sandbox_server())
            return servers[neighbourhood]

        yield server


@pytest.fixture(scope="module")
def sandbox(
    request: pytest.FixtureRequest, _sandbox_servers: Callable[[str], SandboxProcess]
) -> SandboxProcess:
    """The session's sandbox server of this test's neighbourhood (tests/support/
    sandbox_server.py; module scope, so that the module's path tells which). A module that
    needs a server of its own (tests/faults/, tests/e2e/test_oauth.py) overrides it under
    the same name and type."""
    return _sandbox_servers(_neighbourhood(request.node.path))


@pytest.fixture
def fresh_sandbox() -> Iterator[SandboxProcess]:
    """A server of the test's own, for tests that change credentials or global state."""
    with sandbox_server() as server:
        yield server


class CredentialEnv(dict[str, str]):
    """Environment variables whose repr hides the credential: pytest prints a failing
    test's arguments, and a key in test output is a key in CI logs."""

    def __repr__(self) -> str:
        shown = {k: "<hidden>" if k == "LEADCTL_TOKEN" else v for k, v in self.items()}
        return f"CredentialEnv({shown!r})"


def credential_env(sandbox: SandboxProcess, credential: str) -> CredentialEnv:
    """LEADCTL_TOKEN and LEADCTL_BASE_URL for running leadctl with ``credential``."""
    return CredentialEnv(sandbox.env(credential))


@pytest.fixture
def org_env(sandbox: SandboxProcess) -> CredentialEnv:
    """LEADCTL_TOKEN (the demo organization key) and LEADCTL_BASE_URL; a fresh dict per test."""
    return credential_env(sandbox, sandbox.credentials.org)


@pytest.fixture
def env_for(sandbox: SandboxProcess) -> Callable[[str], CredentialEnv]:
    """``env_for(sandbox.credentials.source)``: the environment for another credential."""
    return lambda credential: credential_env(sandbox, credential)


@pytest.fixture
def source_env(sandbox: SandboxProcess) -> CredentialEnv:
    """A profile ``intake`` holding the demo source key, stated as one (`auth login --kind
    source`: the bundled contract names no prefix that would tell it from any token)."""
    # Setting up, not the subject (tests/e2e/test_gh_habits.py and the secret audit run
    # `auth login --with-token` installed).
    from tests.support.in_process import run_in_process

    login = ["-p", "intake", "auth", "login", "--kind", "source", "--with-token"]
    options = ["--base-url", sandbox.base_url, "--insecure-storage", "--no-contract"]
    result = run_in_process([*login, *options], stdin=sandbox.credentials.source)
    assert result.exit_code == 0, result.stderr
    return CredentialEnv({"LEADCTL_PROFILE": "intake"})


@pytest.fixture(autouse=True)
def _no_leftover_faults(request: pytest.FixtureRequest) -> Iterator[None]:
    """Clears the faults a test added, only where the test asked for ``sandbox``: the
    session's server or a module's own one."""
    yield
    if "sandbox" in request.fixturenames:
        server = request.getfixturevalue("sandbox")
        if isinstance(server, SandboxProcess):
            server.clear_faults()

"""The ASP.NET-style fixture contract served by a validating mock, and leadctl pointed at it
(a pytest plugin, registered in tests/conftest.py).

    def test_something(contract_mock: ContractMock, leadctl_env: CredentialEnv) -> None:
        result = run_leadctl(["tags", "list"], env=leadctl_env)
        assert not contract_mock.violations()

``contract_version`` runs a test once per variant (3.1 and 3.0). ``leadctl_env`` has a
profile whose base_url is the mock, LEADCTL_TOKEN an organization key, and the contract
imported with ``leadctl contract import``; the per-test config, data and cache dirs come from
tests/conftest.py.

Two fixture contracts: ``aspnet`` (build.py, the ASP.NET style) and ``traits`` (the service's
own contract as an operator met it: the ASP.NET one with the traits of
tests/fixtures/contracts/traits/ applied). ``trait_mock`` / ``trait_env`` serve and point at
the second.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import pytest

from tests.support.cli import run_cli
from tests.support.contract_mock import ContractMock, serve_contract
from tests.support.e2e import Completed, run_leadctl
from tests.support.imported_contracts import ImportedContracts
from tests.support.in_process import run_in_process
from tests.support.sandbox_fixtures import CredentialEnv

CONTRACTS = Path(__file__).resolve().parents[1] / "fixtures" / "contracts"
VERSIONS = ("3.1", "3.0")
CONTRACT_NAMES = ("aspnet", "traits")
ORG_KEY = "sk_fixture_0123456789abcdef0123"
SOURCE_KEY = "lp_src_fixture_0123456789abcdef"
CREDENTIALS = {"org": ORG_KEY, "source": SOURCE_KEY}
SCHEME_KINDS = {"Bearer": {"org", "user"}, "SourceKey": {"source"}}


def contract_path(version: str, name: str = "aspnet") -> Path:
    return CONTRACTS / f"{name}-{version}.json"


@cache
def _load(version: str, name: str) -> str:
    return contract_path(version, name).read_text(encoding="utf-8")


def load_contract(version: str, name: str = "aspnet") -> dict[str, Any]:
    """A fresh copy of the fixture contract ``name`` of that OpenAPI version."""
    document: dict[str, Any] = json.loads(_load(version, name))
    return document


VERSION_PARAMS = VERSIONS


@pytest.fixture(params=VERSION_PARAMS, ids=lambda v: f"openapi-{v}")
def contract_version(request: pytest.FixtureRequest) -> str:
    return str(request.param)


class Runner(Protocol):
    def __call__(
        self,
        args: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        stdin: str | None = None,
        timeout: float = 60,
    ) -> Completed: ...


# The variant whose tests run the installed program; the other one runs the same commands
# in-process.
ENTRY_POINT_VERSION = "3.1"


@pytest.fixture
def leadctl(contract_version: str) -> Runner:
    """Runs leadctl for a test that meets both contract variants. What the variants tell apart
    is how leadctl reads the contract, the same code in the process or out of it, so the real
    entry point (a subprocess: a second each on a loaded machine) is met once per guarantee,
    on 3.1, and 3.0 runs in-process."""
    return run_leadctl if contract_version == ENTRY_POINT_VERSION else run_in_process


@pytest.fixture
def contract_mock(contract_version: str) -> Iterator[ContractMock]:
    with serve_contract(
        load_contract(contract_version), credentials=CREDENTIALS, scheme_kinds=SCHEME_KINDS
    ) as mock:
        yield mock


def leadctl_env_for(
    mock: ContractMock,
    version: str,
    contracts: ImportedContracts,
    token: str = ORG_KEY,
    name: str = "aspnet",
) -> CredentialEnv:
    """Point the default profile at ``mock``, with the fixture contract imported for it."""
    # Setting up, not the subject: in-process (a subprocess costs a second on a loaded machine).
    configured = run_cli(["profile", "set", "base_url", mock.base_url])
    assert configured.exit_code == 0, configured.stderr
    contracts.install(contract_path(version, name), mock.base_url)
    return CredentialEnv({"LEADCTL_TOKEN": token})


@pytest.fixture
def leadctl_env(
    contract_mock: ContractMock, contract_version: str, imported_contracts: ImportedContracts
) -> CredentialEnv:
    return leadctl_env_for(contract_mock, contract_version, imported_contracts)


@pytest.fixture
def trait_mock(contract_version: str) -> Iterator[ContractMock]:
    with serve_contract(
        load_contract(contract_version, "traits"),
        credentials=CREDENTIALS,
        scheme_kinds=SCHEME_KINDS,
    ) as mock:
        yield mock


@pytest.fixture
def trait_env(
    trait_mock: ContractMock, contract_version: str, imported_contracts: ImportedContracts
) -> CredentialEnv:
    return leadctl_env_for(trait_mock, contract_version, imported_contracts, name="traits")

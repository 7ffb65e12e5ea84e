"""Every test runs with its own config, data and cache dirs and none of the user's LEADCTL_* vars;
keyring fixtures for the in-process tests of every folder."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.core
import pytest
from keyring.backend import KeyringBackend

from tests.support import hypothesis_profiles
from tests.support.e2e import home_env
from tests.support.imported_contracts import ImportedContracts
from tests.support.keyrings import DictKeyring

hypothesis_profiles.register()

# Fixtures every folder may use, one module per kind: the tests of a verb live beside it in
# tests/commands/<group>/ whatever they run against.
pytest_plugins = [
    "tests.support.sandbox_fixtures",
    "tests.support.hostile_fixtures",
    "tests.support.contract_mock_fixtures",
]

# Modules whose module fixture does the module's expensive work up front (the fault tables,
# the secret audits, a fresh install): a module split between workers did it on each.
WHOLE_MODULES = frozenset(
    {
        "tests/faults/test_fault_reads.py",
        "tests/faults/test_fault_writes.py",
        "tests/security/test_secret_audit.py",
        "tests/security/test_oauth_audit.py",
        # A fresh install without extras (uv venv + uv pip install: ~18 s a worker).
        "tests/sandbox/test_install_without_extras.py",
    }
)


# Single tests that run for half a minute or more (one schemathesis run, the README tour, the
# operator loop): collected first, so xdist hands them out at the start and no worker is
# left running one of them after the others have finished.
LONG_FIRST = (
    "tests/sandbox/test_sandbox_schemathesis.py",
    "tests/sandbox/test_readme_tour.py",
    "tests/sandbox/test_operator_loop.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Bytecode for leadctl, its sandbox, the tests and the venv's libraries, before any
    worker or leadctl process starts. Where PYTHONDONTWRITEBYTECODE is set (this CI machine
    sets it) Python never writes it, and each of the ~1,000 leadctl processes the suite starts
    compiled typer, httpx and its own modules from source again: a fresh clone ran `uv run
    pytest` in 346 s, against 222 s with bytecode. The first run compiles for about 7 s;
    later ones check the files' times (0.2 s)."""
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller has done it
    import compileall
    import sys
    import sysconfig

    root = Path(__file__).resolve().parent.parent
    places = [root / "leadctl", root / "leadctl_sandbox", root / "tests"]
    if sys.prefix != sys.base_prefix:  # a venv of this project's, never a shared install
        places.append(Path(sysconfig.get_paths()["purelib"]))
    for place in places:
        compileall.compile_dir(place, quiet=2, workers=os.cpu_count() or 1)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        module = item.nodeid.split("::", 1)[0]
        return LONG_FIRST.index(module) if module in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)  # stable: the rest stay in collection order


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): two workers a core. Much of the suite waits, on the
    leadctl processes and sandboxes it starts and on Retry-After pauses, so one worker a core
    leaves the cores idle half the time (2 cores: 462 s with 2 workers, 320 s with 4)."""
    usable = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return 2 * (len(usable) if usable else os.cpu_count() or 1)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """xdist's per-test load balancing (-n without --dist), except that each of WHOLE_MODULES
    goes to one worker, first (the largest units are handed out first). What xdist_group
    marks with --dist loadgroup would do, but under pytest 9 their node-id suffix is lost."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class WholeModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in WHOLE_MODULES else nodeid

    return WholeModules(config, log)


# leadctl's three dirs, as every fixture wider than one test sees them: never the user's own.
# A leadctl run that writes there had no home of its own (a module fixture's `auth login` once
# pulled a contract into the real ~/.cache/leadctl on every suite run); `isolated_env` fails the
# test whose fixtures did it.
@pytest.fixture(scope="session", autouse=True)
def unclaimed_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("unclaimed-home")
    with pytest.MonkeyPatch.context() as patch:
        for name, value in home_env(home).items():
            patch.setenv(name, value)
        yield home


@pytest.fixture(autouse=True)
def isolated_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unclaimed_home: Path
) -> Iterator[Path]:
    assert not any(unclaimed_home.iterdir()), _unclaimed_message(unclaimed_home)
    for name in list(os.environ):
        if name.startswith("LEADCTL_") or name in (
            "NO_COLOR",
            "FORCE_COLOR",
            "CLICOLOR",
            "CLICOLOR_FORCE",
            "PAGER",
        ):
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    for name, value in home_env(home).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "120")
    # In-process tests mock HTTP with pytest-httpx, which sees only httpx's requests: the
    # one-shot stdlib transport (leadctl/http/one_shot.py) is kept for the e2e tests, whose
    # subprocesses get no LEADCTL_* variable (tests/support/e2e.base_env).
    monkeypatch.setenv("LEADCTL_HTTP_TRANSPORT", "httpx")
    # A test that reaches the real OS keyring by accident fails loudly instead.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    yield home
    assert not any(unclaimed_home.iterdir()), _unclaimed_message(unclaimed_home)


def _unclaimed_message(home: Path) -> str:
    written = sorted(str(path.relative_to(home)) for path in home.rglob("*"))
    return (
        f"a leadctl run of this test or of a fixture it uses wrote {written} under the dirs "
        f"no test owns ({home}): give that run its own {', '.join(home_env(home))}"
    )


@pytest.fixture(scope="session")
def imported_contracts(tmp_path_factory: pytest.TempPathFactory) -> ImportedContracts:
    """Contracts imported once per session (per xdist worker), copied in where a test asks."""
    return ImportedContracts(tmp_path_factory.mktemp("imported-contracts"))


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

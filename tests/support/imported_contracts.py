"""Contracts imported once per test session, then copied into each test's cache dir.

`leadctl contract import` compiles the whole contract: over a second of CPU for the fixture
contracts, several seconds on a loaded machine. What it leaves in the cache dir depends on
the contract file only (not on the profile's settings, nor on where the dirs are), so a copy
of one import, placed where the store keeps a service's contract, is what a fresh import
would have made. Tests of importing itself still run
`contract import`; tests that only need a contract in place take it from here.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from leadctl.contract.store import key_dir, key_for_base_url, key_for_profile
from tests.support.e2e import run_leadctl


class ImportedContracts:
    def __init__(self, root: Path) -> None:
        self._root = root
        self._compiled: dict[Path, Path] = {}

    def _compiled_from(self, contract: Path) -> Path:
        if contract not in self._compiled:
            home = self._root / str(len(self._compiled))
            env = {
                "LEADCTL_CONFIG_DIR": str(home / "config"),
                "LEADCTL_DATA_DIR": str(home / "data"),
                "LEADCTL_CACHE_DIR": str(home / "cache"),
            }
            imported = run_leadctl(["contract", "import", str(contract)], env=env)
            assert imported.exit_code == 0, imported.stderr
            # No base URL was set: the store kept it under the profile's key.
            self._compiled[contract] = key_dir(
                env, key_for_profile("default", None, embedded_sandbox=False)
            )
        return self._compiled[contract]

    def install(self, contract: Path, base_url: str) -> None:
        """``contract``, imported for the service at ``base_url``, in this test's cache dir
        (the LEADCTL_CACHE_DIR that tests/conftest.py sets)."""
        target = key_dir(os.environ, key_for_base_url(base_url))
        shutil.copytree(self._compiled_from(contract), target)

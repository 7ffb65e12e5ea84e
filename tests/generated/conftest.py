"""Every test here has its own cache dir (where imported contracts live) and one service."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.generated.contracts import widgets, write
from tests.support.cli import BASE_URL, Result, run_cli


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("LEADCTL_CACHE_DIR", str(path))
    # Contracts are kept per base URL: every invocation here talks to the same service.
    monkeypatch.setenv("LEADCTL_BASE_URL", BASE_URL)
    return path


@pytest.fixture
def import_contract(tmp_path: Path) -> Callable[..., Result]:
    """Import a document (default: the widgets contract) for the service at BASE_URL
    (contracts are kept per base URL)."""

    def run(document: dict[str, Any] | None = None, *args: str) -> Result:
        path = write(tmp_path / "contract.json", widgets() if document is None else document)
        result = run_cli([*args, "contract", "import", str(path)])
        assert result.exit_code == 0, result.stderr
        return result

    return run

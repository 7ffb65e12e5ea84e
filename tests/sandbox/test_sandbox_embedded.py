"""The sandbox embedded in the process, as ``--profile sandbox`` uses it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from leadctl_sandbox.db import DB_FILE
from leadctl_sandbox.embedded import EmbeddedSandbox
from tests.support.cli import run_cli

# Generous for a loaded CI machine; the measured warm start is reported by the benchmark.
WARM_START_BUDGET = 2.0


def test_embedded_sandbox_serves_on_loopback_and_stops(tmp_path: Path) -> None:
    env = {"LEADCTL_DATA_DIR": str(tmp_path)}
    sandbox = EmbeddedSandbox(env=env)
    sandbox.start()
    try:
        assert sandbox.base_url.startswith("http://127.0.0.1:")
        assert sandbox.org_key.startswith("sk_")
        response = httpx.get(
            sandbox.base_url + "/lead-statuses",
            headers={"Authorization": f"Bearer {sandbox.org_key}"},
        )
        assert response.status_code == 200
        created = httpx.post(
            sandbox.base_url + "/leads",
            json={"firstName": "Embedded", "phone": "+15125550170"},
            headers={"Authorization": f"Bearer {sandbox.org_key}"},
        ).json()
    finally:
        sandbox.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(sandbox.base_url + "/lead-statuses")
    state = tmp_path / "sandbox" / DB_FILE
    assert state.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "sandbox").stat().st_mode & 0o777 == 0o700

    again = EmbeddedSandbox(env=env)
    started = time.perf_counter()
    again.start()
    elapsed = time.perf_counter() - started
    try:
        assert again.org_key == sandbox.org_key  # the same state, not reseeded
        found = httpx.post(
            again.base_url + "/leads/all/my",
            json={"filters": [{"field": "id", "value": created["id"]}]},
            headers={"Authorization": f"Bearer {again.org_key}"},
        ).json()
        assert [lead["id"] for lead in found["items"]] == [created["id"]]
    finally:
        again.stop()
    assert elapsed < WARM_START_BUDGET


def test_profile_sandbox_runs_a_command_without_login(tmp_path: Path) -> None:
    env = {"LEADCTL_DATA_DIR": str(tmp_path / "data"), "LEADCTL_CONFIG_DIR": str(tmp_path / "c")}
    result = run_cli(
        ["--profile", "sandbox", "-o", "json", "api", "GET", "/lead-statuses"], env=env
    )
    assert result.exit_code == 0, result.stderr
    statuses = json.loads(result.stdout)
    assert [s["name"] for s in statuses][:2] == ["New", "Contacted"]
    assert (tmp_path / "data" / "sandbox" / DB_FILE).exists()

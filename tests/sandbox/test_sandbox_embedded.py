"""The sandbox embedded in the process, as ``--profile sandbox`` uses it."""

from __future__ import annotations

import gc
import json
import socket
import time
import warnings
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


def test_stopping_cuts_off_open_connections_and_leaves_the_state_whole(tmp_path: Path) -> None:
    """The embedded sandbox stops without uvicorn's graceful polling (its command is done):
    an idle keep-alive connection and a request still sending its body are closed, nothing
    is left for the garbage collector to warn about, and the state opens again."""
    env = {"LEADCTL_DATA_DIR": str(tmp_path)}
    sandbox = EmbeddedSandbox(env=env)
    sandbox.start()
    auth = {"Authorization": f"Bearer {sandbox.org_key}"}
    port = int(sandbox.base_url.rsplit(":", 1)[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        idle = httpx.Client(base_url=sandbox.base_url, headers=auth)
        assert idle.get("/lead-statuses").status_code == 200  # its connection stays open
        partial = socket.create_connection(("127.0.0.1", port))
        partial.sendall(
            b"POST /leads HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer "
            + sandbox.org_key.encode()
            + b'\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"first'
        )
        sandbox.stop()
        partial.settimeout(10)
        try:
            answer = partial.recv(1024)
        except ConnectionResetError:  # closed with its body unread: reset rather than EOF
            answer = b""
        assert answer == b""  # closed, no answer
        partial.close()
        with pytest.raises(httpx.TransportError):
            idle.get("/lead-statuses")
        idle.close()
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []

    again = EmbeddedSandbox(env=env)
    again.start()
    try:
        statuses = httpx.get(again.base_url + "/lead-statuses", headers=auth)
        assert statuses.status_code == 200 and statuses.json()
    finally:
        again.stop()


def test_profile_sandbox_runs_a_command_without_login(tmp_path: Path) -> None:
    env = {"LEADCTL_DATA_DIR": str(tmp_path / "data"), "LEADCTL_CONFIG_DIR": str(tmp_path / "c")}
    result = run_cli(
        ["--profile", "sandbox", "-o", "json", "api", "GET", "/lead-statuses"], env=env
    )
    assert result.exit_code == 0, result.stderr
    statuses = json.loads(result.stdout)
    assert [s["name"] for s in statuses][:2] == ["New", "Contacted"]
    assert (tmp_path / "data" / "sandbox" / DB_FILE).exists()

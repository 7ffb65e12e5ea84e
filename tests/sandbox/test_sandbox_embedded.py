"""The sandbox embedded in the process, as ``--profile sandbox`` uses it."""

from __future__ import annotations

import gc
import json
import re
import socket
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from leadctl_sandbox.db import DB_FILE
from leadctl_sandbox.embedded import EmbeddedSandbox, InProcessSandbox
from leadctl_sandbox.in_process import InProcessTransport
from tests.support.cli import run_cli
from tests.support.e2e import run_leadctl

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


# -- in the process, without a socket (--profile sandbox) ---------------------------------


def test_the_in_process_sandbox_answers_as_the_served_one(tmp_path: Path) -> None:
    sandbox = InProcessSandbox(env={"LEADCTL_DATA_DIR": str(tmp_path)})
    sandbox.start()
    auth = {"Authorization": f"Bearer {sandbox.org_key}"}
    try:
        with httpx.Client(transport=sandbox.transport, base_url=sandbox.base_url) as api:
            created = api.post(
                "/leads", json={"firstName": "In Process", "phone": "+15125550171"}, headers=auth
            )
            assert created.status_code == 202, created.text
            lead = created.json()
            # The path arrives percent-decoded, beside its raw form; the query string whole.
            found = api.get(f"/leads/{lead['id']}", headers=auth)
            assert found.json()["firstName"] == "In Process"
            missing = api.get("/leads/no%20such%2Flead", headers=auth)
            assert missing.status_code == 404
            assert missing.headers["content-type"].startswith("application/problem+json")
            assert api.get("/lead-statuses").status_code == 401  # the same middleware
        # A client closing (httpx closes its transport) leaves it to every other client.
        with httpx.Client(transport=sandbox.transport, base_url=sandbox.base_url) as again:
            assert again.get("/lead-statuses", headers=auth).status_code == 200
    finally:
        sandbox.stop()
    with pytest.raises(httpx.ConnectError, match="has stopped"):
        httpx.Client(transport=transport_of(sandbox, tmp_path)).get(sandbox.base_url + "/")


def transport_of(stopped: InProcessSandbox, tmp_path: Path) -> InProcessTransport:
    """A stopped sandbox's transport, kept by a client that outlives it."""
    kept = InProcessSandbox(env={"LEADCTL_DATA_DIR": str(tmp_path)})
    kept.start()
    transport = kept.transport
    assert transport is not None and stopped.transport is None
    kept.stop()
    return transport


def test_requests_of_several_threads_are_all_answered() -> None:
    """A pager fetches its next page from another thread while the first is printed."""
    seen: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["path"] + "?" + scope["query_string"].decode())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": scope["path"].encode()})

    transport = InProcessTransport(app)
    try:
        api = httpx.Client(transport=transport, base_url="http://sandbox.localhost")
        with api, ThreadPoolExecutor(4) as pool:
            paths = list(pool.map(lambda n: api.get(f"/p/{n}?n={n}").text, range(8)))
    finally:
        transport.shutdown()
    assert paths == [f"/p/{n}" for n in range(8)]
    assert sorted(seen) == sorted(f"/p/{n}?n={n}" for n in range(8))


def test_a_handler_that_fails_before_answering_is_a_500() -> None:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise RuntimeError("a bug in the sandbox")

    transport = InProcessTransport(app)
    try:
        with httpx.Client(transport=transport) as api:
            answer = api.get("http://sandbox.localhost/anything")
    finally:
        transport.shutdown()
    assert answer.status_code == 500


def test_profile_sandbox_starts_no_server(tmp_path: Path) -> None:
    """The installed leadctl: the app answers in the process, uvicorn never loads (it was
    most of what a -p sandbox command spent beyond the same read of `sandbox serve`)."""
    env = {"LEADCTL_DATA_DIR": str(tmp_path / "data"), "PYTHONVERBOSE": "1"}
    result = run_leadctl(["-p", "sandbox", "lead-statuses", "list", "-o", "json"], env=env)
    assert result.exit_code == 0, result.stderr[-2000:]
    assert [s["name"] for s in json.loads(result.stdout)][:2] == ["New", "Contacted"]
    loaded = set(re.findall(r"^import '([\w.]+)' #", result.stderr, re.MULTILINE))
    assert "leadctl_sandbox.in_process" in loaded  # guards the guard
    assert sorted(m for m in loaded if m.split(".")[0] in ("uvicorn", "h11")) == []
    assert "httpx._main" not in loaded
    # Nor what this read does not call: the OAuth server, other operations' handlers.
    assert "leadctl_sandbox.oauth" not in loaded
    handlers = sorted(m for m in loaded if m.startswith("leadctl_sandbox.ops."))
    assert handlers == ["leadctl_sandbox.ops.lead_statuses"]

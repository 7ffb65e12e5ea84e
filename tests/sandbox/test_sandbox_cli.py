"""``leadctl sandbox serve|reset`` as users run them: output, Ctrl-C, loopback, state, seed.

A server's start, its output and its stop belong to the process and run it; a refusal that
ends before any server starts and a second reset run in-process (``run_in_process``: the
same command tree)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from leadctl_sandbox.db import DB_FILE
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess, sandbox_server

MODULE = (sys.executable, "-m", "leadctl", "sandbox")
LEADCTL = str(Path(sys.executable).with_name("leadctl"))


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(LEADCTL_DATA_DIR=str(tmp_path / "data"), LEADCTL_CONFIG_DIR=str(tmp_path / "cfg"))
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*MODULE, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def _read_until(process: subprocess.Popen[str], marker: str, timeout: float = 30) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    seen = ""
    while marker not in seen and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen += line
    return seen


def test_non_loopback_host_is_refused_without_allow_remote(tmp_path: Path) -> None:
    result = _run(["serve", "--host", "0.0.0.0", "--port", "0", "--memory"], _env(tmp_path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "refusing to listen on 0.0.0.0" in result.stderr
    assert "--allow-remote" in result.stderr


def test_conflicting_state_options_are_a_usage_error(tmp_path: Path) -> None:
    args = ["sandbox", "serve", "--memory", "--data-dir", str(tmp_path), "--port", "0"]
    result = run_in_process(args, env=_env(tmp_path))
    assert result.exit_code == 2
    assert "--data-dir and --memory" in result.stderr


def test_busy_port_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = _run(["serve", "--memory", "--port", str(port)], _env(tmp_path))
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_serve_prints_url_and_credentials_and_ctrl_c_stops_it(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*MODULE, "serve", "--memory", "--port", "0", "--seed", "3"],
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        shown = _read_until(process, "Press Ctrl-C to stop.")
        assert "leadctl sandbox listening on http://127.0.0.1:" in shown
        for label in ("organization key  sk_", "user token", "read-only token", "Website form"):
            assert label in shown
        url = shown.split("listening on ", 1)[1].split()[0]
        key = shown.split("organization key  ", 1)[1].split()[0]
        response = httpx.get(url + "/lead-statuses", headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 200
        httpx.get(url + "/lead-statuses", headers={"Authorization": "Bearer sk_wrong"})
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0
    assert "sandbox stopped" in err
    assert "Traceback" not in err
    assert key not in err and "sk_wrong" not in err  # no access log, no credential
    assert "GET /lead-statuses" not in err


def test_global_o_json_prints_one_ready_line(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [LEADCTL, "-o", "json", "sandbox", "serve", "--memory", "--port", "0"],
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        ready = json.loads(process.stdout.readline())
        process.send_signal(signal.SIGTERM)
        rest, _err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert set(ready) == {"baseUrl", "credentials"}
    assert ready["baseUrl"].startswith("http://127.0.0.1:")
    assert set(ready["credentials"]) == {"org", "user", "readOnlyUser", "sources"}
    assert len(ready["credentials"]["sources"]) == 4
    assert rest == ""  # exactly one line
    assert process.returncode == 0


def test_allow_remote_listens_beyond_loopback_with_a_warning(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [*MODULE, "serve", "--memory", "--port", "0", "--host", "0.0.0.0", "--allow-remote"],
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        shown = _read_until(process, "Press Ctrl-C to stop.")
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert "listening on http://0.0.0.0:" in shown
    assert "warning: the sandbox listens on 0.0.0.0" in err


def _state_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir()) if directory.exists() else []


def test_state_persists_across_restarts_and_reset_wipes_it(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with sandbox_server(data_dir=state, seed=5) as first:
        source_id = next(iter(first.credentials.sources))
        with first.client() as api:
            lead = api.post("/leads", json={"firstName": "Kept", "phone": "+15125550160"}).json()
            api.post(f"/sources/{source_id}/credentials/rotate")
        org_key = first.credentials.org
    (state / "notes.txt").write_text("not the sandbox's", encoding="utf-8")
    with sandbox_server(data_dir=state, seed=6) as second:
        assert second.credentials.org == org_key
        assert source_id not in second.credentials.sources  # shown once, never again
        with second.client() as api:
            body = {"filters": [{"field": "id", "value": lead["id"]}]}
            assert len(api.post("/leads/all/my", json=body).json()["items"]) == 1
        assert "--seed 6 is ignored" in _stop_and_stderr(second)
    assert DB_FILE in _state_files(state)
    reset = _run(["reset", "--yes", "--data-dir", str(state)], _env(tmp_path))
    assert reset.returncode == 0
    assert "sandbox state removed" in reset.stderr
    assert _state_files(state) == ["notes.txt"]
    again = run_in_process(
        ["sandbox", "reset", "--yes", "--data-dir", str(state)], env=_env(tmp_path)
    )
    assert again.exit_code == 0 and "no sandbox state" in again.stderr


def _stop_and_stderr(sandbox: SandboxProcess) -> str:
    text_before = sandbox.stderr_path
    sandbox.process.send_signal(signal.SIGINT)
    sandbox.process.wait(15)
    return text_before.read_text(encoding="utf-8")


def test_reset_wipes_the_default_state_dir(tmp_path: Path) -> None:
    env = _env(tmp_path)
    from leadctl_sandbox.embedded import EmbeddedSandbox

    embedded = EmbeddedSandbox(env=env)
    embedded.start()
    embedded.stop()
    default = tmp_path / "data" / "sandbox"
    assert DB_FILE in _state_files(default)
    result = run_in_process(["sandbox", "reset", "--yes"], env=env)
    assert result.exit_code == 0, result.stderr
    assert not default.exists()


def test_same_seed_same_demo_data() -> None:
    def snapshot(seed: int) -> tuple[object, ...]:
        with sandbox_server(seed=seed) as sandbox, sandbox.client() as api:
            info = sandbox.info()
            leads = api.post("/leads/all/my", json={"pageSize": 20, "orderBy": [{"field": "id"}]})
            rows = [
                (x["id"], x["firstName"], x["lastName"], x["phone"]) for x in leads.json()["items"]
            ]
            return (info["organization"], info["sources"], info["automations"], rows)

    assert snapshot(5) == snapshot(5)
    assert snapshot(5) != snapshot(6)


def test_command_module_imports_no_server_libraries() -> None:
    probe = (
        "import sys, leadctl.commands.sandbox; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'starlette', 'uvicorn', 'jwt', 'httpx', 'sqlite3', 'rich', 'platformdirs'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"

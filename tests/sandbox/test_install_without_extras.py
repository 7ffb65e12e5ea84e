"""Every install has the sandbox: the project installed into a fresh venv without extras
(`pip install .`, here through uv's pip interface, offline from uv's cache) runs
``--profile sandbox`` and ``sandbox serve``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("uv") is None, reason="needs uv to make a fresh venv"),
]


def uv(*args: str, env: dict[str, str]) -> None:
    # A throwaway venv needs no bytecode of its ~100 packages (UV_COMPILE_BYTECODE, where set,
    # makes each install several times slower).
    quick = {k: v for k, v in env.items() if k != "UV_COMPILE_BYTECODE"}
    proc = subprocess.run(
        ["uv", *args], cwd=ROOT, env=quick, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, f"uv {' '.join(args)}:\n{proc.stderr[-3000:]}"


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("install") / "venv"
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    env["UV_PROJECT_ENVIRONMENT"] = str(venv)
    # The locked versions of the dependencies the project declares (no dev group, no extra),
    # then the project itself as `pip install .` installs it: a wheel built from this tree.
    uv("sync", "--offline", "--locked", "--no-dev", "--no-install-project",
       "--python", sys.executable, env=env)  # fmt: skip
    del env["UV_PROJECT_ENVIRONMENT"]
    uv("pip", "install", "--offline", "--python", str(venv / "bin" / "python"), ".", env=env)
    return venv


def fresh_env(home: Path) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LEADCTL_CONFIG_DIR": str(home / "config"),
        "LEADCTL_DATA_DIR": str(home / "data"),
        "LEADCTL_CACHE_DIR": str(home / "cache"),
    }


def test_the_install_has_no_extra_and_no_dev_tool(fresh_venv: Path) -> None:
    probe = "import importlib.util as u; print([m for m in ('pytest', 'mypy') if u.find_spec(m)])"
    proc = subprocess.run(
        [str(fresh_venv / "bin" / "python"), "-c", probe],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    assert proc.stdout.strip() == "[]"


def test_profile_sandbox_works_in_a_fresh_install(fresh_venv: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(fresh_venv / "bin" / "leadctl"), "--profile", "sandbox", "lead-statuses", "list",
         "-o", "json"],
        env=fresh_env(tmp_path), stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = [status["name"] for status in json.loads(proc.stdout)]
    assert "New" in names
    assert (tmp_path / "data" / "sandbox").is_dir()


def test_sandbox_serve_starts_in_a_fresh_install(fresh_venv: Path, tmp_path: Path) -> None:
    serve = subprocess.Popen(
        [str(fresh_venv / "bin" / "leadctl"), "sandbox", "serve", "--memory", "--port", "0",
         "--print-json"],
        env=fresh_env(tmp_path), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert serve.stdout is not None
        ready = json.loads(serve.stdout.readline())
        assert ready["baseUrl"].startswith("http://127.0.0.1:")
    finally:
        serve.terminate()
        serve.wait(30)
    assert serve.returncode == 0

"""leadctl as cron runs it: an empty environment but PATH, HOME and its two variables,
stdin closed, no terminal anywhere."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.shell.conftest import require
from tests.support.e2e import leadctl_executable
from tests.support.sandbox_server import SandboxProcess


def cron_run(command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``command`` under ``env -i`` with fd 0 closed, through /bin/sh as cron does."""
    require("env", "sh")
    assignments = [f"{name}={value}" for name, value in env.items()]
    return subprocess.run(
        ["env", "-i", *assignments, "/bin/sh", "-c", f"exec {command} 0<&-"],
        capture_output=True,
        text=True,
        timeout=30,
        start_new_session=True,  # no controlling terminal, like a cron job
    )


def test_read_command_from_cron(sandbox: SandboxProcess, tmp_path: Path) -> None:
    home = tmp_path / "cron-home"
    home.mkdir()
    token_file = home / ".leadctl-token"
    token_file.write_text(sandbox.credentials.org + "\n")
    token_file.chmod(0o600)
    result = cron_run(
        f"'{leadctl_executable()}' lead-statuses list -o json",
        {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "LEADCTL_TOKEN_FILE": str(token_file),
            "LEADCTL_BASE_URL": sandbox.base_url,
        },
    )
    assert result.returncode == 0, result.stderr
    statuses = json.loads(result.stdout)
    assert isinstance(statuses, list) and statuses
    assert all("id" in status and "name" in status for status in statuses)
    assert result.stderr == ""
    # Nothing was written to the home directory but the token file.
    assert sorted(p.name for p in home.iterdir()) == [".leadctl-token"]


def test_cron_default_output_is_json_without_o(sandbox: SandboxProcess, tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(sandbox.credentials.org)
    token_file.chmod(0o600)
    result = cron_run(
        f"'{leadctl_executable()}' lead-statuses list",
        {
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "LEADCTL_TOKEN_FILE": str(token_file),
            "LEADCTL_BASE_URL": sandbox.base_url,
        },
    )
    assert result.returncode == 0, result.stderr
    assert isinstance(json.loads(result.stdout), list)

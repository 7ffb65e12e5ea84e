"""The sandbox profile stays the sandbox, and its state is guarded: ``sandbox reset`` asks,
refuses while a ``sandbox serve`` holds the state, and a broken state is one line naming
``sandbox reset``.

Each guarantee meets the installed program (exit codes, the prompt on a terminal, the refusal
while a server holds the state); making a state, settings, and the reset that cleans up after
a check run in-process (``run_in_process``: the same command tree)."""

from __future__ import annotations

import json
import os
import pty
import select
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from leadctl_sandbox.db import DB_FILE
from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import sandbox_server

pytestmark = pytest.mark.e2e


def default_state(home: Path) -> Path:
    return home / "data" / "sandbox"


def make_state() -> None:
    result = run_in_process(["--profile", "sandbox", "lead-statuses", "list", "-o", "json"])
    assert result.exit_code == 0, result.stderr


# -- the sandbox profile ---------------------------------------------------------------


def test_profile_settings_are_layered_on_the_embedded_sandbox(isolated_env: Path) -> None:
    for key, value in (("region", "US"), ("output", "csv")):
        result = run_in_process(["--profile", "sandbox", "profile", "set", key, value])
        assert result.exit_code == 0, result.stderr
        assert "no longer" not in result.stderr and "instead of" not in result.stderr
    listed = run_leadctl(["--profile", "sandbox", "lead-statuses", "list"])
    assert listed.exit_code == 0, listed.stderr
    header, first = listed.stdout.splitlines()[:2]
    assert "name" in header.split(",") and "New" in first.split(",")  # the profile's csv
    # The current profile, not only -p: `profile use sandbox` after the settings.
    assert run_in_process(["profile", "use", "sandbox"]).exit_code == 0
    again = run_in_process(["lead-statuses", "list", "-o", "json"])
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)[0]["name"] == "New"
    assert (default_state(isolated_env) / DB_FILE).exists()


# -- sandbox reset ---------------------------------------------------------------------


def test_reset_without_a_terminal_needs_yes(isolated_env: Path) -> None:
    make_state()
    result = run_leadctl(["sandbox", "reset"])
    assert result.exit_code == 2
    assert "confirmation needed" in result.stderr and "--yes" in result.stderr
    assert (default_state(isolated_env) / DB_FILE).exists()
    assert run_leadctl(["sandbox", "reset", "--yes"]).exit_code == 0
    assert not default_state(isolated_env).exists()


def reset_on_a_terminal(answer: str) -> tuple[int, str]:
    """``sandbox reset`` with stdin and stderr on a pseudo-terminal, answering the prompt."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [leadctl_executable(), "sandbox", "reset"],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=base_env({"TERM": "xterm"}),
    )
    os.close(slave)
    seen = b""
    answered = False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if not answered and b"[y/N]: " in seen:
                os.write(master, answer.encode() + b"\n")
                answered = True
        elif proc.poll() is not None:
            break
    os.close(master)
    proc.wait(30)
    assert answered, seen
    return proc.returncode, seen.decode("utf-8", "replace")


def test_reset_asks_on_a_terminal(isolated_env: Path) -> None:
    make_state()
    code, shown = reset_on_a_terminal("n")
    assert code == 10
    assert f"Wipe the sandbox state at {default_state(isolated_env)}?" in shown
    assert (default_state(isolated_env) / DB_FILE).exists()
    code, shown = reset_on_a_terminal("y")
    assert code == 0, shown
    assert "sandbox state removed" in shown
    assert not default_state(isolated_env).exists()


def test_reset_is_refused_while_a_serve_holds_the_state(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with sandbox_server(data_dir=state) as served:
        refused = run_leadctl(["sandbox", "reset", "--yes", "--data-dir", str(state)])
        assert refused.exit_code == 1
        assert f"pid {served.process.pid}" in refused.stderr
        assert "sandbox serve" in refused.stderr
        assert (state / DB_FILE).exists()
        second = run_leadctl(["sandbox", "serve", "--port", "0", "--data-dir", str(state)])
        assert second.exit_code == 1
        assert f"pid {served.process.pid}" in second.stderr
        with served.client() as api:
            assert api.get("/lead-statuses").status_code == 200  # untouched
    done = run_in_process(["sandbox", "reset", "--yes", "--data-dir", str(state)])
    assert done.exit_code == 0, done.stderr
    assert not (state / DB_FILE).exists()


# -- a broken state --------------------------------------------------------------------


def assert_one_line_naming_reset(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ") and "leadctl sandbox reset" in lines[0]
    assert "Traceback" not in stderr


def test_a_corrupt_state_is_one_line_naming_reset(isolated_env: Path) -> None:
    state = default_state(isolated_env)
    state.mkdir(parents=True)
    (state / DB_FILE).write_bytes(b"not a database, just bytes\n" * 200)
    result = run_leadctl(["--profile", "sandbox", "lead-statuses", "list"])
    assert result.exit_code == 1
    assert_one_line_naming_reset(result.stderr)
    assert run_in_process(["sandbox", "reset", "--yes"]).exit_code == 0
    make_state()


def test_a_state_of_another_version_is_one_line_naming_reset(isolated_env: Path) -> None:
    make_state()
    with sqlite3.connect(default_state(isolated_env) / DB_FILE) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    result = run_leadctl(["--profile", "sandbox", "lead-statuses", "list"])
    assert result.exit_code == 1
    assert_one_line_naming_reset(result.stderr)
    assert "another leadctl version" in result.stderr
    served = run_leadctl(["sandbox", "serve", "--port", "0"])
    assert served.exit_code == 1
    assert_one_line_naming_reset(served.stderr)


def test_a_state_missing_its_organization_is_one_line_naming_reset(isolated_env: Path) -> None:
    make_state()
    with sqlite3.connect(default_state(isolated_env) / DB_FILE) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'demo_org_id'")
    result = run_leadctl(["--profile", "sandbox", "lead-statuses", "list"])
    assert result.exit_code == 1
    assert_one_line_naming_reset(result.stderr)

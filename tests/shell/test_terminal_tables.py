"""Tables and ``--all`` progress on a real pseudo-terminal (tmux) at 80 and 120 columns:
every full id and phone number on screen, every requested header present, and nothing
of the progress line left behind when stdout is a pipe."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.shell.conftest import SecretEnv
from tests.shell.test_terminal import SGR, Terminal, exit_code, terminal_env
from tests.support.e2e import leadctl_executable
from tests.support.sandbox_server import SandboxProcess

__all__ = ["terminal_env"]  # a fixture, used by name

WIDTHS = [80, 120]


@pytest.fixture(params=WIDTHS, ids=lambda width: f"{width}cols")
def sized(request: pytest.FixtureRequest, terminal_env: SecretEnv) -> Iterator[Terminal]:
    env = SecretEnv({**terminal_env, "LEADCTL_PAGER": "cat"})
    term = Terminal(env, width=request.param, height=60)
    term.width = request.param  # type: ignore[attr-defined]
    yield term
    term.close()


def json_of(env: SecretEnv, *args: str) -> Any:
    done = subprocess.run(
        [leadctl_executable(), *args, "-o", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def shown(term: Terminal, command: str) -> str:
    """What the command drew, escapes removed; every line fits the terminal."""
    received = term.run(command)
    assert exit_code(received) == 0, received
    text = SGR.sub("", received).replace("\x1b[K", "").replace("\r", "\n")
    body = text.split("\n", 1)[1].rsplit("[exit", 1)[0]  # after the echoed command line
    width = term.width  # type: ignore[attr-defined]
    # stderr's notes share the screen: what was left out, and the next page's cursor (a
    # token is never broken, so the line that holds it alone may be wider than the terminal).
    notes = ("not shown at ", "more results: ")
    table = [
        line for line in body.splitlines() if not line.startswith(notes) and " " in line.strip()
    ]
    assert all(len(line) <= width for line in table), body
    return body


def test_leads_list_keeps_every_id_and_phone(sized: Terminal, terminal_env: SecretEnv) -> None:
    leads = json_of(terminal_env, "leads", "list", "--limit", "15")
    body = shown(sized, "leadctl leads list --limit 15")
    for lead in leads:
        row = next(line for line in body.splitlines() if line.startswith(lead["id"] + " "))
        assert lead["phone"] in row.split()


def test_requested_columns_are_all_there(sized: Terminal, terminal_env: SecretEnv) -> None:
    wanted = ["id", "firstName", "lastName", "phone", "state", "tags"]
    leads = json_of(terminal_env, "leads", "list", "--limit", "15")
    body = shown(sized, f"leadctl leads list --limit 15 --columns {','.join(wanted)}")
    for name in wanted:
        assert re.search(rf"(^|\s){re.escape(name)}(\s|$)", body, re.MULTILINE), name
    for lead in leads:
        assert lead["id"] in body and lead["phone"] in body


def test_lead_statuses_keep_every_id(sized: Terminal, terminal_env: SecretEnv) -> None:
    statuses = json_of(terminal_env, "lead-statuses", "list")
    body = shown(sized, "leadctl lead-statuses list")
    for status in statuses:
        assert re.search(rf"\b{re.escape(status['id'])}$", body, re.MULTILINE), status["id"]


def test_automation_runs_keep_every_run_id(
    sized: Terminal, terminal_env: SecretEnv, sandbox: SandboxProcess
) -> None:
    automation = next(a for a in sandbox.info()["automations"] if a["name"] == "New lead welcome")
    history = json_of(terminal_env, "automations", "runs", automation["id"])
    body = shown(sized, f"leadctl automations runs {automation['id']}")
    for run in history["runs"]:
        assert re.search(rf"^{re.escape(run['id'])}\s", body, re.MULTILINE), run["id"]


def test_generated_tables_keep_every_id(
    sized: Terminal, terminal_env: SecretEnv, tmp_path: Path
) -> None:
    cache = {"LEADCTL_CACHE_DIR": str(tmp_path / "cache")}
    pull = subprocess.run(
        [leadctl_executable(), "contract", "pull"],
        env={**terminal_env, **cache},
        capture_output=True,
        timeout=60,
    )
    assert pull.returncode == 0, pull.stderr
    sources = json_of(SecretEnv({**terminal_env, **cache}), "sources", "list", "--all")
    body = shown(
        sized, f"LEADCTL_CACHE_DIR={cache['LEADCTL_CACHE_DIR']} leadctl sources list --all"
    )
    for source in sources:
        assert source["id"] in body


def test_all_piped_to_head_leaves_nothing_on_the_terminal(sized: Terminal) -> None:
    received = sized.run("leadctl leads list --all --page-size 5 -o ndjson | head -1 > /dev/null")
    assert exit_code(received) == 0
    screen = sized.screen()
    assert "items," not in screen and "pages" not in screen, screen

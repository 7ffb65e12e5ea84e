"""The README's tour, run as a reader runs it (issue 23 point 13): every line of it, in
order, with `lc` the installed leadctl on the sandbox profile; piped, and on an 80-column
terminal where no line of leadctl's is wider than the terminal unless it is one token."""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.e2e import base_env, leadctl_executable

pytestmark = pytest.mark.e2e

README = Path(__file__).resolve().parents[2] / "README.md"
SGR = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def tour() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## A tour against the sandbox", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    lines = block.splitlines()
    assert lines[0].startswith("lc() {"), lines[0]
    # The installed leadctl rather than `uv run` (same program, no resolver per line).
    define = f'lc() {{ {shlex.quote(leadctl_executable())} --profile sandbox "$@"; }}'
    return "\n".join(["set -euo pipefail", define, *lines[1:]]) + "\n"


def test_the_first_comment_says_what_the_first_line_shows() -> None:
    first = next(line for line in tour().splitlines() if line.startswith("lc "))
    assert first.split("#", 1)[0].split() == ["lc", "leads", "list"]
    assert "footer gives --cursor" in first


def test_the_tour_runs_piped(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "-c", tour()],
        cwd=tmp_path,
        env=base_env({"LEADCTL_PAGER": "cat"}),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "error:" not in done.stderr
    assert (tmp_path / "tx.csv").read_text().startswith("id,firstName,state")


def test_the_tour_fits_an_80_column_terminal(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    env = base_env({"COLUMNS": "80", "LINES": "50", "TERM": "xterm", "LEADCTL_PAGER": "cat"})
    proc = subprocess.Popen(
        ["bash", "-c", tour()], cwd=tmp_path, stdin=follower, stdout=follower,
        stderr=follower, env=env,
    )  # fmt: skip
    os.close(follower)
    shown = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        elif proc.poll() is not None:
            break
    os.close(leader)
    assert proc.wait(timeout=30) == 0, shown[-3000:]
    # What stays on the screen: progress lines are redrawn with \r, then erased.
    screen = shown.decode().replace("\r\n", "\n")
    lines = [SGR.sub("", line.split("\r")[-1]) for line in screen.split("\n")]
    wide = [line for line in lines if len(line.rstrip()) > 80 and " " in line.strip()]
    assert wide == []
    assert "Traceback" not in shown.decode()

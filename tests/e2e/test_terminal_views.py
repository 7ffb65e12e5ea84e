"""The terminal views as a person sees them: the installed ``leadctl`` in a real terminal
(a tmux pane, 120x50), screen captured with and without escape sequences.

Set CAPTURE_VIEWS_DIR to keep a plain-text capture of each view there
(scripts/capture_views.sh does).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.e2e import base_env, leadctl_executable
from tests.support.sandbox_server import SandboxProcess

TMUX = shutil.which("tmux")
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it)"),
]

WIDTH, HEIGHT = 120, 50
NUMBER = "+15125550101"  # the demo number in warmup: ramping, gauges, traffic, events
MARKER = "__LEADCTL_EXIT__"
SGR = re.compile(r"\x1b\[[0-9;:]*m")


@dataclass
class Screen:
    exit_code: int
    text: str  # what the command printed, as shown on the screen
    escaped: str  # the same with the terminal's color escapes (capture-pane -e)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


class Terminal:
    """One tmux server on a private socket running ``sh`` in a WIDTH x HEIGHT pane."""

    def __init__(self, env: Mapping[str, str]) -> None:
        assert TMUX is not None
        # Unix socket paths are short (about 100 bytes): pytest's tmp_path can be longer.
        self._dir = tempfile.mkdtemp(prefix="lt-")
        self._tmux = [TMUX, "-S", os.path.join(self._dir, "s"), "-f", os.devnull]
        self._env = dict(env)

    def _call(self, *args: str) -> str:
        done = subprocess.run(
            [*self._tmux, *args],
            env=self._env,
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        )
        return done.stdout

    def start(self, timeout: float = 20) -> None:
        self._call("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", "v", "sh")
        # Keys typed before the shell's first prompt are echoed ahead of it, and the prompt
        # then lands on the first line of output: wait for the prompt before typing.
        deadline = time.monotonic() + timeout
        while not self._call("capture-pane", "-p", "-t", "v").strip():
            if time.monotonic() > deadline:
                raise TimeoutError("the shell in the tmux pane printed no prompt")
            time.sleep(0.05)

    def run(self, args: list[str], timeout: float = 30) -> Screen:
        """Type the command at the shell prompt, wait for it to finish, capture the screen."""
        command = " ".join(shlex.quote(part) for part in [leadctl_executable(), *args])
        self._call("send-keys", "-t", "v", "-l", f"{command}; echo {MARKER}$?")
        self._call("send-keys", "-t", "v", "Enter")
        deadline = time.monotonic() + timeout
        pattern = re.compile(rf"^{MARKER}(\d+)\s*$", re.MULTILINE)
        while True:
            plain = self._call("capture-pane", "-p", "-J", "-t", "v", "-S", "-", "-E", "-")
            found = pattern.search(plain)
            if found:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"leadctl {' '.join(args)} did not finish:\n{plain}")
            time.sleep(0.1)
        escaped = self._call("capture-pane", "-p", "-J", "-e", "-t", "v", "-S", "-", "-E", "-")
        return Screen(int(found.group(1)), _output(plain), _output(escaped))

    def stop(self) -> None:
        subprocess.run(
            [*self._tmux, "kill-server"], env=self._env, capture_output=True, check=False
        )
        shutil.rmtree(self._dir, ignore_errors=True)


def _output(screen: str) -> str:
    """The lines between the typed command and the exit marker."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if MARKER in line and "$?" in line)
    end = next(
        i for i, line in enumerate(lines) if re.match(rf"^(\x1b\[[0-9;]*m)*{MARKER}\d", line)
    )
    return "\n".join(line.rstrip() for line in lines[start + 1 : end]) + "\n"


@pytest.fixture
def terminal(org_env: Mapping[str, str]) -> Iterator[Any]:
    """A factory of terminals with the sandbox credentials in the environment (never on a
    command line), so the pane's width is measured, not told."""
    started: list[Terminal] = []

    def open_terminal(**extra: str) -> Terminal:
        env = base_env({**org_env, "PS1": "$ ", "LEADCTL_PAGER": "cat", **extra})
        for name in (
            "COLUMNS",
            "LINES",
            "NO_COLOR",
            "FORCE_COLOR",
            "CLICOLOR",
            "CLICOLOR_FORCE",
            "ENV",
        ):
            if name not in extra:
                env.pop(name, None)
        term = Terminal(env)
        term.start()
        started.append(term)
        return term

    yield open_terminal
    for term in started:
        term.stop()


def keep(name: str, screen: Screen) -> None:
    where = os.environ.get("CAPTURE_VIEWS_DIR")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        (Path(where) / name).write_text(screen.text, encoding="utf-8")


def assert_clean(screen: Screen) -> None:
    assert screen.exit_code == 0, screen.text
    assert "Traceback" not in screen.text
    assert "error:" not in screen.text
    assert max(len(line) for line in screen.lines) <= WIDTH


def showcase_run(sandbox: SandboxProcess) -> tuple[str, dict[str, Any]]:
    """A failed run with the most steps (errors, retries, events): the richest tree."""
    best: tuple[int, int, int] | None = None
    chosen: tuple[str, dict[str, Any]] | None = None
    with sandbox.client() as api:
        for automation in sandbox.info()["automations"]:
            for run in api.get(f"/automations/{automation['id']}/runs").json()["runs"]:
                score = (run["status"] == "Failed", len(run["actions"]), len(run["events"]))
                if best is None or score > best:
                    best, chosen = score, (automation["id"], run)
    assert chosen is not None
    return chosen


def test_number_status_view(terminal: Any) -> None:
    screen = terminal().run(["numbers", "status", NUMBER])
    assert_clean(screen)
    keep("capture_numbers.txt", screen)
    text, lines = screen.text, screen.lines
    assert lines[0].startswith(NUMBER)
    # Six gauges, one per channel and period, aligned, each with its reset time.
    gauges = [line for line in lines if re.search(r"[█░]{10,}\s+[\d,]+ / [\d,]+", line)]
    assert len(gauges) == 6
    assert len({re.search("[█░]", line).start() for line in gauges}) == 1  # type: ignore[union-attr]
    # "this minute" resets at the next minute: a screen drawn in that minute's last second
    # (or, on a loaded machine, just after it) says "resets now" or "reset 1s ago".
    resets = r"resets in \d+[smhd]|resets now|reset \d+s ago"
    assert all(re.search(resets, line) for line in gauges)
    assert "progress" in text and "%" in text
    assert "opt-out rate" in text
    spark = next(line for line in lines if line.startswith("SMS sent"))
    assert len(re.findall("[▁▂▃▄▅▆▇█]", spark)) >= 7
    assert "Recent events" in text and " → " in text
    # Colors mean something: the gauges and the capacity verdict are colored.
    assert re.search(r"\x1b\[[0-9;]*m█", screen.escaped)
    assert re.search(r"\x1b\[[0-9;]*m● capacity", screen.escaped)


def test_number_status_view_without_color(terminal: Any) -> None:
    plain = terminal(NO_COLOR="1").run(["numbers", "status", NUMBER])
    assert_clean(plain)
    assert not re.search(r"\x1b\[[0-9;]*[1-9][0-9;]*m", plain.escaped)  # no style at all
    gauges = [line for line in plain.lines if re.search(r"[█░]{10,}", line)]
    assert len(gauges) >= 6


def test_automation_run_tree(sandbox: SandboxProcess, terminal: Any) -> None:
    automation_id, run = showcase_run(sandbox)
    screen = terminal().run(["automations", "runs", automation_id, "--run", run["id"]])
    assert_clean(screen)
    keep("capture_automation_run.txt", screen)
    lines = screen.lines
    assert lines[0] == f"Run {run['id']}  {run['statusDisplay']}"
    assert any(line.startswith("├── ") for line in lines)
    assert any(line.startswith("└── ") for line in lines)
    assert any(line.startswith("│   ") for line in lines)  # an action with its events
    for action in run["actions"]:
        assert any(
            f"── {action['stepOrder']}. {action['stepDisplayName']}" in line for line in lines
        )
    if run["status"] == "Failed":
        assert re.search(r"\x1b\[[0-9;]*31mFailed", screen.escaped)  # red, where it failed


def test_automation_runs_table(sandbox: SandboxProcess, terminal: Any) -> None:
    automation_id, run = showcase_run(sandbox)
    screen = terminal().run(["automations", "runs", automation_id])
    assert_clean(screen)
    assert any(line.startswith(run["id"][:8]) for line in screen.lines)
    assert "↳" in screen.text

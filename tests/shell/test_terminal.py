"""leadctl in a real terminal (tmux): colors, tables, the pager, progress; and none of
that when piped, with NO_COLOR, or with TERM=dumb.

Each test gets its own tmux server running bash on a pseudo-terminal; everything the
pane receives is recorded with `pipe-pane`, so even output that is later redrawn (a
pager's screen, a progress line) can be checked. The credential reaches the shell
through the environment of the tmux server, never through a command line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.shell.conftest import SecretEnv, require
from tests.support.e2e import leadctl_executable
from tests.support.sandbox_server import SandboxProcess

SGR = re.compile(r"\x1b\[[0-9;:]*m")  # a color or style escape
WAIT = 20.0


class Terminal:
    def __init__(self, env: SecretEnv, *, width: int, height: int) -> None:
        require("tmux", "bash")
        self.dir = Path(tempfile.mkdtemp(prefix="leadctl-tmux-"))
        self.socket = str(self.dir / "sock")
        self.log = self.dir / "pane.log"
        self.env = env
        self.tmux(
            "new-session", "-d", "-x", str(width), "-y", str(height), "-s", "t",
            "bash --norc --noprofile",
        )  # fmt: skip
        try:
            self.tmux("pipe-pane", "-t", "t", "-o", f"cat >> {self.log}")
            self.type("PS1='$ '; bind 'set enable-bracketed-paste off' 2>/dev/null; clear")
            self.wait_for(r"^\$\s*$")
        except BaseException:
            self.close()
            raise

    def tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-S", self.socket, "-f", "/dev/null", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=True,
        )
        return result.stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", line)
        self.tmux("send-keys", "-t", "t", "Enter")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def wait_for(self, pattern: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen()
            if re.search(pattern, screen, re.MULTILINE):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"never on screen: {pattern!r}\n{screen}")
            time.sleep(0.05)

    def run(self, command: str) -> str:
        """Run a command line, wait for it to finish; return what the pane received."""
        start = self.log.stat().st_size if self.log.exists() else 0
        self.type(f'{command}; echo "[exit $?]"')
        self.wait_for(r"^\[exit \d+\]$")
        return self.received(start)

    def received(self, start: int = 0) -> str:
        # pipe-pane writes asynchronously; give it a moment to catch up.
        time.sleep(0.1)
        return self.log.read_bytes()[start:].decode("utf-8", "replace")

    def close(self) -> None:
        subprocess.run(
            ["tmux", "-S", self.socket, "kill-server"], env=self.env, capture_output=True
        )
        shutil.rmtree(self.dir, ignore_errors=True)


def exit_code(received: str) -> int:
    return int(re.findall(r"\[exit (\d+)\]", received)[-1])


@pytest.fixture
def terminal_env(sandbox: SandboxProcess, tmp_path: Path) -> SecretEnv:
    home = tmp_path / "term-home"
    home.mkdir()
    return SecretEnv(
        {
            "PATH": f"{Path(leadctl_executable()).parent}:{os.environ['PATH']}",
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "TERM": "xterm-256color",
            "LEADCTL_CONFIG_DIR": str(home / "config"),
            "LEADCTL_DATA_DIR": str(home / "data"),
            "LEADCTL_BASE_URL": sandbox.base_url,
            "LEADCTL_TOKEN": sandbox.credentials.org,
        }
    )


@pytest.fixture
def terminal(terminal_env: SecretEnv) -> Iterator[Terminal]:
    term = Terminal(terminal_env, width=120, height=40)
    yield term
    term.close()


@pytest.fixture
def short_terminal(terminal_env: SecretEnv) -> Iterator[Terminal]:
    term = Terminal(terminal_env, width=120, height=15)
    yield term
    term.close()


def test_table_with_colors_on_a_terminal(terminal: Terminal) -> None:
    received = terminal.run("leadctl lead-statuses list")
    assert exit_code(received) == 0
    assert SGR.search(received), "no color on a terminal"
    screen = terminal.screen()
    assert re.search(r"name\s+.*color\s+.*category", screen), screen
    assert '"id":' not in screen  # a table, not the JSON of a pipe


def test_long_table_goes_through_the_pager(short_terminal: Terminal) -> None:
    """More rows than lines: less (the default pager, -FRX) holds the screen until q."""
    require("less")
    short_terminal.type('leadctl leads list --limit 60 --columns id,phone; echo "[exit $?]"')
    screen = short_terminal.wait_for(r"^(:|\(END\))\s*$")  # less's prompt
    assert "[exit" not in screen  # leadctl is still waiting on the pager
    short_terminal.keys("q")
    screen = short_terminal.wait_for(r"^\[exit \d+\]$")
    assert "[exit 0]" in screen


def test_pager_receives_the_whole_table(terminal_env: SecretEnv, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    env = SecretEnv({**terminal_env, "LEADCTL_PAGER": f"tee {paged}"})
    term = Terminal(env, width=120, height=15)
    try:
        received = term.run("leadctl leads list --limit 60 --columns id,phone")
    finally:
        term.close()
    assert exit_code(received) == 0
    rows = [line for line in paged.read_text().splitlines() if re.search(r"\+\d{6,}", line)]
    assert len(rows) == 60


def test_no_pager_with_term_dumb(short_terminal: Terminal, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    received = short_terminal.run(
        f"TERM=dumb LEADCTL_PAGER='tee {paged}' leadctl leads list --limit 60 --columns id,phone"
    )
    assert exit_code(received) == 0
    assert not paged.exists(), "a pager ran on a dumb terminal"


def test_short_output_is_not_paged(terminal: Terminal, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    received = terminal.run(f"LEADCTL_PAGER='tee {paged}' leadctl lead-statuses list")
    assert exit_code(received) == 0
    assert not paged.exists()


def test_piped_output_is_json_without_escapes(terminal: Terminal, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    received = terminal.run(f"leadctl lead-statuses list | cat > {out}")
    assert exit_code(received) == 0
    text = out.read_text()
    assert text.startswith("[") and "\x1b" not in text


def test_piped_table_has_no_escapes_and_no_pager(terminal: Terminal, tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    received = terminal.run(f"leadctl leads list --limit 60 -o table | cat > {out}")
    assert exit_code(received) == 0  # no pager waited for a key
    text = out.read_text()
    assert "\x1b" not in text and len(text.splitlines()) > 60


@pytest.mark.parametrize("setting", ["NO_COLOR=1", "TERM=dumb"])
def test_no_color_on_a_terminal_when_asked(terminal: Terminal, setting: str) -> None:
    received = terminal.run(f"{setting} LEADCTL_PAGER=cat leadctl lead-statuses list")
    assert exit_code(received) == 0
    assert re.search(r"name\s+.*category", terminal.screen())  # still a table
    assert not SGR.search(received), "color escapes despite " + setting


def test_no_color_flag(terminal: Terminal) -> None:
    received = terminal.run("leadctl --no-color lead-statuses list")
    assert exit_code(received) == 0
    assert not SGR.search(received)


def test_no_progress_when_stderr_is_not_a_terminal(terminal: Terminal, tmp_path: Path) -> None:
    err = tmp_path / "err.txt"
    received = terminal.run(f"leadctl leads list --all --page-size 20 -o ndjson 2>{err} | wc -l")
    assert exit_code(received) == 0
    assert err.read_text() == ""


def test_progress_on_stderr_during_all(terminal: Terminal, tmp_path: Path) -> None:
    out = tmp_path / "leads.ndjson"
    received = terminal.run(f"leadctl leads list --all --page-size 20 -o ndjson > {out}")
    assert exit_code(received) == 0
    assert len(out.read_text().splitlines()) >= 200
    # Between the command line's echo and the exit marker, only stderr reached the pane.
    stderr_part = received.split("\n", 1)[1].split("[exit")[0]
    assert re.search(r"\d+", stderr_part), "no progress on the terminal"

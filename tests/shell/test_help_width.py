"""--help on a real pseudo-terminal: as wide as the terminal says it is (no COLUMNS), and
every example still one whole command (words never split) at 80 and at 120 columns."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios

import pytest

from leadctl.docgen.text import split_examples
from leadctl.docgen.tree import load_tree
from tests.support.e2e import leadctl_executable

COMMAND = ("status-changes", "update")  # the longest options and examples
TIMEOUT = 30


def help_on_a_terminal(columns: int) -> str:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env.update(NO_COLOR="1", TERM="xterm")
    proc = subprocess.Popen(
        [leadctl_executable(), *COMMAND, "--help"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        close_fds=True,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=TIMEOUT) == 0
    return b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.mark.parametrize("columns", [80, 120])
def test_help_fills_the_terminal_and_keeps_examples_whole(columns: int) -> None:
    text = help_on_a_terminal(columns)
    widths = [len(line) for line in text.splitlines()]
    assert max(widths) <= columns
    assert max(widths) > columns - 10  # the width is used, not Click's 80
    spec = next(c for c in load_tree().walk() if c.path == COMMAND)
    _epilog, examples = split_examples(spec.epilog)
    tail = re.sub(r" \\\n\s+", " ", text.rsplit("Examples:", 1)[1])
    shown = [line.strip() for line in tail.splitlines() if line.strip()]
    assert shown == [" ".join(example.split()) for example in examples]

"""The cyclic garbage collector during start-up: off while the command tree loads (it
only scans objects that live as long as the process), back on once a command runs, so a
long export or import still collects its cycles."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.support.e2e import base_env

# Runs the console script's entry point and reports the collector's state on exit.
PROBE = textwrap.dedent(
    """
    import gc, sys
    from leadctl.__main__ import main
    sys.argv = ["leadctl", *sys.argv[1:]]
    try:
        main()
    finally:
        sys.stderr.write(f"probe: enabled={gc.isenabled()} frozen={gc.get_freeze_count()}\\n")
    """
)


def probe(tmp_path: Path, *args: str) -> tuple[bool, int]:
    env = base_env({"LEADCTL_CONFIG_DIR": str(tmp_path / "config")})
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    line = next(x for x in proc.stderr.splitlines() if x.startswith("probe: "))
    fields = dict(part.split("=") for part in line.removeprefix("probe: ").split())
    return fields["enabled"] == "True", int(fields["frozen"])


def test_help_never_turns_the_collector_on(tmp_path: Path) -> None:
    assert probe(tmp_path, "--help") == (False, 0)


def test_a_command_that_runs_collects_again_and_freezes_what_start_up_built(
    tmp_path: Path,
) -> None:
    enabled, frozen = probe(tmp_path, "profile", "list", "-o", "json")
    assert enabled
    assert frozen > 1000  # the command tree, Typer and leadctl's modules

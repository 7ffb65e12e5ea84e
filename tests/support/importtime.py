"""What a leadctl command imports, read from ``python -X importtime`` of a real run (the
installed package, a child process with the test's dirs)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping, Sequence

from tests.support.e2e import base_env


def imported(
    args: Sequence[str], env: Mapping[str, str] | None = None, stdin: str | None = None
) -> set[str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "leadctl", *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=base_env(env),
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                names.add(name)
    return names


def loaded(names: set[str], packages: Sequence[str]) -> list[str]:
    return sorted(p for p in packages if any(n == p or n.startswith(p + ".") for n in names))

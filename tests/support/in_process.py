"""``run_leadctl``'s signature and answer, run in this process: for the commands of a test
whose subject is not the process (setup, rows of a table that vary only the data).

The same command tree as the installed program (``invoke``, which its entry point calls), the
same socket to the sandbox or mock, stdin at its end where the program's would be closed, and
the real clock (a 429 is waited out, ``--wait`` polls in real time). A run costs a few
milliseconds instead of the interpreter's start (a fifth of a CPU second, and a second on a
loaded machine).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from leadctl.clock import Clock
from tests.support.cli import run_cli
from tests.support.e2e import Completed


def run_in_process(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    timeout: float = 60,
) -> Completed:
    """``timeout`` is there for the signature only: nothing stops a command run in-process."""
    result = run_cli(args, env=env, stdin=stdin or "", clock=Clock())
    return Completed(result.exit_code, result.stdout, result.stderr)

"""Issue 22.1 (bulk row lines): what `leads import` says on stderr about each row the
service refused quotes its problem document, shown and never acted on, on a terminal (a
progress bar's notes) and in a pipe or log (`batch`: tests/commands/batch/test_batch_hostile.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.checks import SHOWN, acted_on, ndjson_rows, refused, screen_lines
from tests.support.hostile_server import HostileServer
from tests.support.terminal import run_in_pipes, run_on_terminal

pytestmark = pytest.mark.e2e

REFUSED = refused(400)


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    return ndjson_rows(tmp_path / "leads.ndjson")


@pytest.mark.parametrize("on_terminal", [False, True])
def test_import_row_lines_quote_the_service_safely(
    hostile: HostileServer, hostile_env: dict[str, str], rows: Path, on_terminal: bool
) -> None:
    hostile.answer(REFUSED, path="/leads", method="POST", times=3)
    run = run_on_terminal if on_terminal else run_in_pipes
    done = run(["leads", "import", str(rows)], env=hostile_env)
    assert done.exit_code == 6, done.stderr
    noted = [line for line in screen_lines(done.stderr) if line.startswith("row")]
    assert len(noted) == 3 and all(SHOWN in line for line in noted)
    assert all("\\rFAKE" in line for line in noted)  # the bare CR is shown, not obeyed
    assert acted_on(done.stderr, own_progress=True) == []

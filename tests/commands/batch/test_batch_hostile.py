"""Issue 22.1 (bulk row lines): a `batch` report about rows the service refused quotes its
problem document, shown and never acted on, on a terminal too (`leads import`:
tests/commands/leads/test_import_hostile.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hostile.checks import acted_on, ndjson_rows, problem, refused
from tests.support.hostile_server import HostileServer
from tests.support.terminal import run_on_terminal

pytestmark = pytest.mark.e2e

REFUSED = refused(400)


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    return ndjson_rows(tmp_path / "leads.ndjson")


def test_a_batch_report_on_a_terminal_is_json_with_nothing_acted_on(
    hostile: HostileServer, hostile_env: dict[str, str], rows: Path
) -> None:
    hostile.answer(REFUSED, path="/leads", method="POST", times=3)
    done = run_on_terminal(["batch", "POST /leads", "--input", str(rows)], env=hostile_env)
    assert done.exit_code == 6, done.stderr
    reported = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["error"] for line in reported] == [problem(400)] * 3
    assert acted_on(done.stdout) == []
    assert acted_on(done.stderr, own_progress=True) == []

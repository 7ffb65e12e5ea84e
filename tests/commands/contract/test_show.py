"""``leadctl contract show`` in process.

``leadctl contract``'s verbs called through ``run(opts, ctx)``, and ``show``'s table."""

from __future__ import annotations

import csv
import io

from tests.support.cli import run_cli, token_env
from tests.support.run_context import direct_context, stdout_of


def test_show_operations_names_each_operations_command_and_kind() -> None:
    from leadctl.commands.contract.show import Options, run

    ctx = direct_context(output="csv")
    run(Options(operations=True), ctx)
    rows = list(csv.DictReader(io.StringIO(stdout_of(ctx))))
    by_command = {row["command"]: row for row in rows}
    status = by_command["numbers status"]
    assert status["kind"] == "curated"
    assert (status["method"], status["path"]) == ("GET", "/phone-numbers/{phoneNumber}/status")
    assert status["retrySafe"] == "true"


def test_show_table_with_columns_prints_the_groups_like_csv() -> None:
    # Fixed with the output registry: the table used to check --columns against the
    # summary object first, so a group column was "unknown field" (exit 2).
    result = run_cli(
        ["contract", "show", "-o", "table", "--columns", "group,generated"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["group", "generated"]
    assert any(line.split()[0] == "numbers" for line in lines[1:])


def test_show_on_a_terminal_draws_the_groups_table_once() -> None:
    # The summary's field/value table is of its fields only: the command draws the
    # groups itself, so the one-resource view must not draw its lists a second time.
    result = run_cli(
        ["contract", "show"],
        env={**token_env(), "COLUMNS": "80", "NO_COLOR": "1", "LEADCTL_PAGER": "cat"},
        tty=True,
    )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert sum(1 for line in lines if line.split()[:2] == ["group", "tag"]) == 1
    assert not any(" · " in line for line in lines)

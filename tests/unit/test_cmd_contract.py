"""``leadctl contract``'s verbs called through ``run(opts, ctx)``, and ``show``'s table."""

from __future__ import annotations

import csv
import io
import json

from tests.support.cli import run_cli, token_env
from tests.support.run_context import direct_context, stderr_of, stdout_of


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


def test_show_json_is_the_summary_with_groups_that_add_up() -> None:
    from leadctl.commands.contract.show import Options, run

    ctx = direct_context(output="json")
    run(Options(), ctx)
    data = json.loads(stdout_of(ctx))
    assert data["profile"] == "default"
    assert data["operations"] == data["curated"] + data["generated"] > 0
    assert sum(group["operations"] for group in data["groups"]) == data["operations"]


def test_reset_without_an_imported_contract_says_so() -> None:
    from leadctl.commands.contract.reset import Options, run

    ctx = direct_context()
    run(Options(), ctx)
    assert "had no imported contract (profile 'default')" in stderr_of(ctx)
    assert stdout_of(ctx) == ""


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

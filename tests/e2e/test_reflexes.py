"""The reflexes of gh, aws, Stripe and HTTPie users (issue 33 point 5), through the installed
leadctl against the embedded sandbox (`-p sandbox`): each works, or is answered in one line
with the leadctl way and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.e2e import run_leadctl, run_leadctl_tty

SANDBOX = ["-p", "sandbox"]


def test_json_fields_is_json_output_of_those_fields_as_gh() -> None:
    result = run_leadctl([*SANDBOX, "leads", "list", "--limit", "2", "--json", "id,state"])
    assert result.exit_code == 0, result.stderr
    leads = json.loads(result.stdout)
    assert len(leads) == 2 and all(set(lead) == {"id", "state"} for lead in leads)


def test_json_fields_with_another_format_is_refused() -> None:
    result = run_leadctl([*SANDBOX, "leads", "list", "-o", "csv", "--json", "id"])
    assert result.exit_code == 2
    assert "-o json --columns id" in result.stderr


@pytest.mark.parametrize(
    ("typed", "answer"),
    [
        (["config", "get", "output"], "use `leadctl -p sandbox profile show`"),
        (["config", "set", "output", "json"], "use `leadctl -p sandbox profile set`"),
        (["auth", "switch"], "use `leadctl -p sandbox profile use`"),
        (["leads", "view", "x"], "use `leadctl -p sandbox leads get`"),
        (["leads", "list", "--query", "[0]"], "--jq EXPR"),
        (["leads", "list", "--web"], "opens no browser"),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_another_clis_word_is_answered_in_one_line(typed: list[str], answer: str) -> None:
    result = run_leadctl([*SANDBOX, *typed], env={"LEADCTL_OUTPUT": ""})
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and answer in result.stderr, result.stderr


# A table on a terminal draws its header bold; piped, it has no escapes at all.
BOLD = "\x1b[1m"


@pytest.mark.parametrize(
    ("env", "colored"),
    [
        ({"CLICOLOR_FORCE": "1"}, True),
        ({"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, False),
        ({"CLICOLOR_FORCE": "0"}, False),
    ],
    ids=str,
)
def test_clicolor_force_colors_a_pipe_unless_no_color(env: dict[str, str], colored: bool) -> None:
    result = run_leadctl([*SANDBOX, "lead-statuses", "list", "-o", "table"], env=env)
    assert result.exit_code == 0, result.stderr
    assert (BOLD in result.stdout) is colored


@pytest.mark.parametrize(("env", "colored"), [({}, True), ({"CLICOLOR": "0"}, False)], ids=str)
def test_clicolor_0_turns_a_terminals_color_off(env: dict[str, str], colored: bool) -> None:
    result = run_leadctl_tty([*SANDBOX, "lead-statuses", "list"], env=env)
    assert result.exit_code == 0, result.stderr
    assert (BOLD in result.stdout) is colored


@pytest.mark.parametrize(("flags", "paged"), [([], True), (["--no-pager"], False)], ids=str)
def test_no_pager_writes_a_long_table_straight_to_the_terminal(
    tmp_path: Path, flags: list[str], paged: bool
) -> None:
    pager_saw = tmp_path / "paged.txt"
    result = run_leadctl_tty(
        [*SANDBOX, "leads", "list", "--limit", "40", "--columns", "id", *flags],
        env={"LEADCTL_PAGER": f"tee {pager_saw}", "LINES": "10"},
    )
    assert result.exit_code == 0, result.stderr
    assert pager_saw.exists() is paged
    assert result.stdout.count("-") >= 40 * 4  # the rows reached the terminal either way

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
        (["leads", "list", "--json"], "`--json id,state` (`-o json --columns id,state`)"),
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


@pytest.mark.parametrize("columns", [[], ["--columns", "id,status.name"]], ids=str)
def test_yaml_output_is_the_json_output_as_yaml(columns: list[str]) -> None:
    import yaml

    read = [*SANDBOX, "leads", "list", "--limit", "3", *columns]
    as_json = run_leadctl([*read, "-o", "json"])
    as_yaml = run_leadctl([*read, "-o", "yaml"])
    assert as_yaml.exit_code == 0, as_yaml.stderr
    assert not as_yaml.stdout.lstrip().startswith("[")  # block YAML, not JSON
    assert yaml.safe_load(as_yaml.stdout) == json.loads(as_json.stdout)


def test_yaml_output_of_one_object_and_of_an_empty_list() -> None:
    import yaml

    first = json.loads(run_leadctl([*SANDBOX, "leads", "list", "--limit", "1"]).stdout)[0]
    got = run_leadctl([*SANDBOX, "leads", "get", first["id"], "-o", "yaml"])
    assert got.exit_code == 0, got.stderr
    assert yaml.safe_load(got.stdout)["id"] == first["id"]
    empty = run_leadctl([*SANDBOX, "leads", "list", "--filter", "state=ZZ", "-o", "yaml"])
    assert empty.exit_code == 0, empty.stderr
    assert yaml.safe_load(empty.stdout) == []


@pytest.mark.parametrize(
    ("topic", "says"),
    [
        ("environment", ["LEADCTL_TOKEN_FILE", "CLICOLOR_FORCE", "NO_COLOR"]),
        ("exit-codes", ["\n9\n", "Outcome unknown", "\n130\n"]),
        ("formatting", ["yaml", "--json FIELDS", "--jq EXPR", "--no-pager"]),
        ("retries", ["--max-retries N (default 4)", "Retry-After", "exit 9"]),
    ],
)
def test_help_topics_are_in_the_cli_itself(topic: str, says: list[str]) -> None:
    result = run_leadctl(["help", topic])
    assert result.exit_code == 0, result.stderr
    for words in says:
        assert words in result.stdout


def test_every_exit_code_and_variable_of_the_manual_is_in_its_topic() -> None:
    from leadctl.docgen.reference import ENVIRONMENT, EXIT_CODES

    codes = run_leadctl(["help", "exit-codes"]).stdout.splitlines()
    assert [str(int(code)) for code in EXIT_CODES] == [line for line in codes if line.isdigit()]
    variables = run_leadctl(["help", "environment"]).stdout.splitlines()
    assert [name for name, _ in ENVIRONMENT] == [line for line in variables if line.isupper()]


def test_a_mistyped_topic_is_spelled() -> None:
    result = run_leadctl(["help", "exit-code"])
    assert result.exit_code == 2
    assert "`leadctl help exit-codes`" in result.stderr


def test_profile_list_shows_the_built_in_sandbox_profile() -> None:
    table = run_leadctl(["profile", "list", "-o", "table"])
    assert table.exit_code == 0, table.stderr
    header, sandbox = table.stdout.splitlines()
    assert "built-in" in header.split()
    assert sandbox.split()[:3] == ["sandbox", "no", "yes"]
    assert "no profiles of your own yet" in table.stderr


def test_y_is_yes_for_profile_delete() -> None:
    created = run_leadctl(["-p", "scratch", "profile", "set", "region", "US"])
    assert created.exit_code == 0, created.stderr
    deleted = run_leadctl(["profile", "delete", "scratch", "-y"])
    assert deleted.exit_code == 0, deleted.stderr
    names = run_leadctl(["profile", "list", "-o", "value", "--columns", "name"]).stdout
    assert names.split() == ["sandbox"]


def test_every_yes_in_the_command_tree_has_y() -> None:
    from leadctl.docgen.tree import load_tree

    without_y = [
        " ".join(command.path)
        for command in load_tree().walk()
        for option in command.options
        if "--yes" in option.names and "-y" not in option.names
    ]
    assert without_y == []


def test_api_takes_x_and_httpie_items() -> None:
    items = ["pageSize:=2", "X-Trace:abc"]
    result = run_leadctl(
        [*SANDBOX, "api", "-X", "POST", "/leads/all/my", *items, "--jq", ".items|length"]
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "2\n"


def test_api_slurp_counts_every_page_with_jq() -> None:
    path = "/lead-status-changes/all"
    slurped = run_leadctl([*SANDBOX, "api", path, "--paginate", "--slurp", "--jq", "length"])
    assert slurped.exit_code == 0, slurped.stderr
    each = run_leadctl([*SANDBOX, "api", path, "--paginate", "-o", "ndjson"])
    assert int(slurped.stdout) == len(each.stdout.splitlines()) > 25  # more than one page


def test_api_item_before_the_path_is_no_unknown_method() -> None:
    result = run_leadctl([*SANDBOX, "api", "pageSize:=2", "/leads/all/my"])
    assert result.exit_code == 2
    assert "comes before PATH" in result.stderr and "unknown method" not in result.stderr

"""Generated verb names on an ASP.NET-style contract (cli.md "Generated verb names")."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pytest_httpx import HTTPXMock

from leadctl.contract.index import compile_index, curated_command_names
from tests.generated.aspnet import aspnet
from tests.support.cli import BASE_URL, Result, run_cli, token_env

Importer = Callable[..., Result]


def compiled(document: dict[str, Any]) -> dict[str, Any]:
    index, _schemas = compile_index(
        document,
        raw=json.dumps(document).encode(),
        source="test",
        imported_at=None,
        curated_verbs=curated_command_names(),
        leadctl_version="test",
    )
    return index


def generated(index: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {
        (op["method"], op["path"]): f"{op['group']} {op['verb']}"
        for op in index["operations"]
        if not op["curated"]
    }


def test_natural_verbs_for_an_aspnet_contract() -> None:
    names = generated(compiled(aspnet()))
    assert names[("GET", "/leads/{id}")] == "leads get"
    assert names[("GET", "/sources")] == "sources list"
    assert names[("GET", "/tags")] == "tags list"
    assert names[("GET", "/automations")] == "automations list"
    assert names[("POST", "/phone-numbers/all")] == "numbers list"
    assert names[("POST", "/sms")] == "sms send"
    assert names[("POST", "/suppressions/check")] == "suppressions check"
    assert names[("POST", "/calls/{id}/hangup")] == "calls hangup"
    for command in names.values():
        group, verb = command.split(" ")
        assert "for-current-user" not in verb and "for-current-organization" not in verb
        assert "get-all" not in verb
        assert group not in verb.split("-") and group.rstrip("s") not in verb.split("-")


def test_x_cli_name_and_aliases_win() -> None:
    ops = {op["id"]: op for op in compiled(aspnet())["operations"]}
    assert ops["Widgets_Rename"]["verb"] == "relabel"
    assert ops["Widgets_Rename"]["aliases"] == ["rn", "widgets-rename"]


def test_clashes_resolve_the_same_way_whatever_the_order_and_are_reported(
    import_contract: Importer,
) -> None:
    document = aspnet()
    reordered = aspnet()
    reordered["paths"] = dict(reversed(list(document["paths"].items())))
    assert generated(compiled(document)) == generated(compiled(reordered))
    assert generated(compiled(document))[("POST", "/tags/all")] == "tags list-all"
    # Two operations insisting on one x-cli-name: one keeps it, `contract show` says so.
    document["paths"]["/automations"]["get"]["x-cli-name"] = "relabel"
    document["paths"]["/automations"]["get"]["tags"] = ["Widgets"]
    import_contract(document)
    result = run_cli(["contract", "show"])
    assert result.exit_code == 0
    assert "name clash: " in result.stderr and "`widgets relabel`" in result.stderr


def test_the_operation_id_is_a_hidden_alias_and_mistyped_verbs_get_suggestions(
    import_contract: Importer, httpx_mock: HTTPXMock
) -> None:
    import_contract(aspnet())
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/leads/L1", json={"id": "L1"})
    alias = run_cli(["leads", "leads-get-for-current-user", "L1", "-o", "json"], env=token_env())
    assert alias.exit_code == 0, alias.stderr
    tags = run_cli(["tags", "--help"])
    assert tags.exit_code == 0 and "Usage:" in tags.stdout
    assert "get-all-for-current-organization" not in tags.stdout
    typo = run_cli(["tags", "lst"], env=token_env())
    assert typo.exit_code == 2
    assert "did you mean `leadctl tags list`?" in typo.stderr


def test_the_fixture_verb_table_is_up_to_date() -> None:
    from tests.generated.fixture_verbs import TABLE, table

    assert TABLE.read_text(encoding="utf-8") == table(), (
        "run `uv run python -m tests.generated.fixture_verbs`"
    )

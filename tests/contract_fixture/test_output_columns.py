"""Columns chosen from the active contract's response schema, through the installed leadctl
against the validating mock of the trait contract (issue 21 point 9, issue 23 points 4, 12).

- Curated defaults keep their columns where the schema has the fields and otherwise take
  what the contract offers: no column empty on every row because the schema lacks it.
- Generated answers show what a person reads: a status change's type, category and time,
  a timeline entry's type and time, an analytics answer's numbers.
- ``--columns`` is checked against the schema before the first request, in every format,
  and the known fields it names are the schema's.

Each guarantee meets the installed leadctl on the 3.1 contract (the ``leadctl`` fixture);
the other tables and formats, which vary only the data, run in-process (same command tree,
mock and socket).
"""

from __future__ import annotations

import json

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e

LEADS = "/leads/all/my"
LIST_ITEM = {
    "id": "lead-1",
    "firstName": "Ada",
    "lastName": "Lovelace",
    "email": "ada@example.com",
    "phone": "+15125550123",
    "currentLeadStatus": {"id": "st-1", "name": "Qualified", "color": "#22aa88"},
    "processingStatus": "Accepted",
    "tags": [{"id": "t1", "name": "hot"}, {"id": "t2", "name": "web"}],
    "isArchived": False,
    "createdAt": "2026-11-20T15:04:05Z",
}


def table(args: list[str], env: CredentialEnv, run: Runner = run_in_process) -> list[list[str]]:
    result = run([*args, "-o", "table"], env={**env, "NO_COLOR": "1", "TZ": "UTC"})
    assert result.exit_code == 0, result.stderr
    return [line.split("  ") for line in result.stdout.splitlines()]


def header(rows: list[list[str]]) -> list[str]:
    return [cell.strip() for cell in rows[0] if cell.strip()]


def test_leads_list_shows_the_schemas_status_and_no_column_it_lacks(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    trait_mock.reply("POST", LEADS, body={"items": [LIST_ITEM]})

    rows = table(["leads", "list"], trait_env, leadctl)

    assert header(rows) == [
        "id", "firstName", "lastName", "phone", "currentLeadStatus.name", "tags",
        "processing", "createdAt",
    ]  # fmt: skip
    assert {"Qualified", "hot, web"} <= {cell.strip() for cell in rows[1]}
    assert trait_mock.violations() == []


def test_leads_list_csv_of_the_trait_contract_has_its_fields_as_headers(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    trait_mock.reply("POST", LEADS, body={"items": [LIST_ITEM]})

    result = leadctl(["leads", "list", "-o", "csv"], env=trait_env)

    assert result.exit_code == 0, result.stderr
    head, row = result.stdout.splitlines()
    assert head == (
        "id,firstName,lastName,phone,currentLeadStatus.name,tags[].name,processingStatus,createdAt"
    )
    assert row == "lead-1,Ada,Lovelace,+15125550123,Qualified,hot;web,Accepted,2026-11-20T15:04:05Z"


def test_status_changes_show_type_category_and_time(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    rows = table(["status-changes", "list"], trait_env)

    assert {"type", "category", "createdAt"} <= set(header(rows))


def test_a_timeline_shows_the_type_and_time_of_each_entry(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    rows = table(["conversations", "get-timeline", "lead-1"], trait_env)

    assert header(rows)[:4] == ["id", "type", "direction", "timestamp"]


def test_analytics_shows_its_numbers_not_only_when_it_was_made(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    rows = table(["analytics", "get-lead", "--from", "2026-11-01", "--interval", "Day"], trait_env)

    fields = [row[0].strip() for row in rows]
    assert fields[:3] == ["generatedAt", "summary.totalLeads", "summary.contactedLeads"]
    assert {"byDay", "bySource"} <= set(fields)
    assert not any(cell.lstrip().startswith(("[", "{")) for row in rows for cell in row)


@pytest.mark.parametrize("fmt", ["json", "ndjson", "csv", "table", "value"])
def test_an_unknown_column_is_exit_2_before_any_request_naming_the_schemas_fields(
    trait_mock: ContractMock, trait_env: CredentialEnv, fmt: str, leadctl: Runner
) -> None:
    run = leadctl if fmt == "json" else run_in_process
    result = run(["leads", "list", "--all", "-o", fmt, "--columns", "id,state"], env=trait_env)

    assert result.exit_code == 2
    assert "unknown field in --columns: state" in result.stderr
    known = result.stderr.split("known fields: ")[1].strip().split(", ")
    assert "currentLeadStatus.name" in known and "tags[].name" in known
    assert "state" not in known and "status.name" not in known
    assert trait_mock.requests_to("POST", LEADS) == []
    assert result.stdout == ""


def test_json_columns_pick_fields_of_every_item(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    trait_mock.reply("POST", LEADS, body={"items": [LIST_ITEM, {**LIST_ITEM, "tags": None}]})

    result = leadctl(
        ["leads", "list", "-o", "ndjson", "--columns", "id,currentLeadStatus.name,tags[].name"],
        env=trait_env,
    )

    assert result.exit_code == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [
        {
            "id": "lead-1",
            "currentLeadStatus": {"name": "Qualified"},
            "tags": [{"name": "hot"}, {"name": "web"}],
        },
        {"id": "lead-1", "currentLeadStatus": {"name": "Qualified"}, "tags": None},
    ]


def test_a_write_is_not_sent_when_its_columns_are_unknown(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    result = leadctl(
        ["status-changes", "update", "sc-1", "--notes", "x", "-o", "json", "--columns", "nope"],
        env=trait_env,
    )

    assert result.exit_code == 2, result.stderr
    assert trait_mock.requests == []

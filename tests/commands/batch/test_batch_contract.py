"""`batch` on the service's own contract (the trait fixture), with the installed leadctl
against the validating mock: every request valid, and (issue 21 point 15) per line what the
single command does (an empty query for a query read, read-modify-write for a
full-replacement PUT) and --yes once for a destructive one. `leads import` on the same
contract: tests/commands/leads/test_import_contract.py.

The installed leadctl meets each guarantee on one variant (``leadctl``); a body that only
varies the data and the confirmed run after a refusal run in-process (``run_in_process``:
the same command tree and socket).
"""

from __future__ import annotations

import json

import pytest

from tests.support.contract_mock import ContractMock
from tests.support.contract_mock_fixtures import CredentialEnv, Runner
from tests.support.in_process import run_in_process

pytestmark = pytest.mark.e2e


# -- per line what the single command does -------------------------------------------------


def test_a_query_read_line_with_only_an_id_sends_a_valid_empty_query(
    trait_mock: ContractMock, trait_env: CredentialEnv
) -> None:
    result = run_in_process(
        ["batch", "POST /leads/{id}/events/all"], env=trait_env, stdin="lead_1\nlead_2\n"
    )

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []
    sent = trait_mock.requests_to("POST", "/leads/{id}/events/all")
    assert [r.json() for r in sent] == [{}, {}]


def test_a_put_line_is_read_merged_and_sent_whole_with_if_match(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    # PUT /tags/{id} requires name and color; the lines name one of them each.
    lines = '{"id": "tag_1", "name": "vip"}\n{"id": "tag_2", "color": "#ff0000"}\n'
    etags = [trait_mock.etag("/tags/tag_1"), trait_mock.etag("/tags/tag_2")]

    result = leadctl(["batch", "PUT /tags/{id}", "--concurrency", "1"], env=trait_env, stdin=lines)

    assert result.exit_code == 0, result.stderr
    assert trait_mock.violations() == []  # whole bodies, with the schema's required fields
    assert len(trait_mock.requests_to("GET", "/tags/{id}")) == 2
    puts = trait_mock.requests_to("PUT", "/tags/{id}")
    assert puts[0].json()["name"] == "vip" and "color" in puts[0].json()
    assert puts[1].json()["color"] == "#ff0000" and "name" in puts[1].json()
    assert [r.headers.get("if-match") for r in puts] == etags  # the ETag each read carried
    found = sorted((json.loads(x) for x in result.stdout.splitlines()), key=lambda r: r["row"])
    assert [r["params"] for r in found] == [{"id": "tag_1"}, {"id": "tag_2"}]


def test_a_destructive_batch_needs_yes_once(
    trait_mock: ContractMock, trait_env: CredentialEnv, leadctl: Runner
) -> None:
    refused = leadctl(["batch", "leads delete"], env=trait_env, stdin="lead_1\nlead_2\n")
    assert refused.exit_code == 2
    assert "--yes" in refused.stderr
    assert trait_mock.requests == []

    confirmed = run_in_process(
        ["batch", "leads delete", "--yes"], env=trait_env, stdin="lead_1\nlead_2\n"
    )

    assert confirmed.exit_code == 0, confirmed.stderr
    assert len(trait_mock.requests_to("DELETE", "/leads/{id}")) == 2
    assert trait_mock.violations() == []

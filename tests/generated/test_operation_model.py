"""One operation model from the active contract (issue 11): curated commands bound by
METHOD + path template, retry safety by what an operation does, credentials by its
security, against an ASP.NET-style contract."""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.generated.aspnet import aspnet
from tests.support.cli import BASE_URL, FakeClock, Result, run_cli, token_env

Importer = Callable[..., Result]
SOURCE_KEY = "srckey_0123456789abcdef"


@pytest.fixture
def imported(import_contract: Importer) -> Result:
    return import_contract(aspnet())


def bodies(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(r.content) if r.content else None for r in httpx_mock.get_requests()]


# -- curated commands are overlays on the contract's operations -------------------------


def test_curated_commands_are_bound_by_method_and_path_whatever_the_operation_id(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    summary = json.loads(imported.stdout)
    assert (summary["curated"], summary["generated"]) == (12, 15)
    rows = json.loads(run_cli(["contract", "show", "--operations", "-o", "json"]).stdout)
    curated = {(r["method"], r["path"]) for r in rows if r["kind"] == "curated"}
    generated = {(r["method"], r["path"]) for r in rows if r["kind"] == "generated"}
    assert ("PUT", "/sources/{sourceId}") in curated and not curated & generated
    assert not any("update" in r["command"] for r in rows if r["kind"] == "generated")
    # The curated command sends to the contract's path, its parameter named sourceId.
    httpx_mock.add_response(method="PUT", url=f"{BASE_URL}/sources/S%2F1", json={"id": "S/1"})
    result = run_cli(["sources", "update", "S/1", "--name", "N", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr


def test_a_curated_command_missing_from_the_contract_uses_the_bundled_description(
    import_contract: Importer, httpx_mock: HTTPXMock
) -> None:
    document = aspnet()
    del document["paths"]["/lead-statuses"]
    import_contract(document)
    noted = run_cli(["lead-statuses", "list", "--help"])
    assert noted.exit_code == 0
    assert "The active contract has no GET /lead-statuses" in noted.stdout
    httpx_mock.add_response(method="GET", url=f"{BASE_URL}/lead-statuses", json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr
    # With the operation in the contract, no such note.
    import_contract(aspnet())
    plain = run_cli(["lead-statuses", "list", "--help"])
    assert plain.exit_code == 0 and "Usage:" in plain.stdout
    assert "The active contract has no" not in plain.stdout


# -- retry safety by semantics ------------------------------------------------------------


def test_a_post_collection_read_is_retried_like_a_read(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", status_code=503, json={"title": "busy"})
    httpx_mock.add_response(method="POST", json={"items": [{"id": "t1"}]})
    clock = FakeClock()
    result = run_cli(["tags", "list-all", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2 and len(clock.sleeps) == 1


def test_other_posts_are_not_retried_once_sent(imported: Result, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", status_code=503, json={"title": "busy"})
    result = run_cli(["calls", "hangup", "c1"], env=token_env())
    assert result.exit_code == 9
    assert len(httpx_mock.get_requests()) == 1


def test_a_body_idempotency_key_is_fresh_and_the_same_on_every_retry(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", status_code=502, json={"title": "bad gateway"})
    httpx_mock.add_response(method="POST", json={"id": "m1"})
    first = run_cli(["sms", "send", "--field", "to=+15125550143"], env=token_env())
    assert first.exit_code == 0, first.stderr
    sent = bodies(httpx_mock)
    assert sent[0] == sent[1] and sent[0]["to"] == "+15125550143"
    key = sent[0]["idempotencyKey"]
    assert uuid.UUID(key).version == 4
    httpx_mock.add_response(method="POST", json={"id": "m2"})
    assert run_cli(["sms", "send", "--field", "to=+15125550143"], env=token_env()).exit_code == 0
    assert bodies(httpx_mock)[2]["idempotencyKey"] != key  # one key per invocation


def test_a_header_idempotency_key_is_sent_and_a_given_one_is_kept(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", status_code=503, json={"title": "busy"})
    httpx_mock.add_response(method="POST", json={"id": "p1"})
    result = run_cli(["payments", "create", "--field", "amount=5"], env=token_env())
    assert result.exit_code == 0, result.stderr
    keys = [r.headers["Idempotency-Key"] for r in httpx_mock.get_requests()]
    assert keys[0] == keys[1] and uuid.UUID(keys[0])
    httpx_mock.add_response(method="POST", json={"id": "p2"})
    given = ["payments", "create", "--idempotency-key", "mine-1", "--field", "amount=5"]
    assert run_cli(given, env=token_env()).exit_code == 0
    assert httpx_mock.get_requests()[-1].headers["Idempotency-Key"] == "mine-1"


def test_help_and_dry_run_say_how_an_operation_is_retried(imported: Result) -> None:
    sms_help = " ".join(run_cli(["sms", "send", "--help"]).stdout.split())
    assert "Retry-safe (sent with an idempotency key" in sms_help
    assert "body field idempotencyKey" in sms_help
    assert "Not retry-safe" in " ".join(run_cli(["calls", "hangup", "--help"]).stdout.split())
    dry = run_cli(["--dry-run", "sms", "send", "--field", "to=+15125550143"], env=token_env())
    assert dry.exit_code == 0, dry.stderr
    assert re.search(r'"idempotencyKey": "[0-9a-f-]{36}"', dry.stdout)


def test_profile_keys_still_override_the_contract(imported: Result, httpx_mock: HTTPXMock) -> None:
    keys = ["profile", "set", "retry_unsafe_operations", "Tags_GetAllTagsPaged"]
    assert run_cli(keys).exit_code == 0
    httpx_mock.add_response(method="POST", status_code=503, json={"title": "busy"})
    assert run_cli(["tags", "list-all"], env=token_env()).exit_code == 9


# -- credentials by the contract's security -----------------------------------------------


def test_a_source_key_scheme_admits_source_keys_in_its_own_header(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/intake/events", json={})
    result = run_cli(
        ["intake", "post-event", "--field", "kind=call"], env=token_env(token=SOURCE_KEY)
    )
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["X-Source-Key"] == SOURCE_KEY
    assert "Authorization" not in request.headers
    refused = run_cli(["intake", "post-event", "--field", "kind=call"], env=token_env())
    assert refused.exit_code == 4


def test_anonymous_operations_need_no_credential_and_get_none(
    imported: Result, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/suppressions/check", json={})
    # No LEADCTL_TOKEN, and the test keyring fails: a lookup would be an error.
    result = run_cli(["suppressions", "check", "--field", "phone=+15125550143"])
    assert result.exit_code == 0, result.stderr
    assert "Authorization" not in httpx_mock.get_requests()[0].headers
    httpx_mock.add_response(method="POST", url=f"{BASE_URL}/suppressions/check", json={})
    with_token = run_cli(
        ["suppressions", "check", "--field", "phone=+15125550143"], env=token_env()
    )
    assert with_token.exit_code == 0, with_token.stderr
    assert "Authorization" not in httpx_mock.get_requests()[1].headers


def test_curated_and_generated_paths_follow_the_same_security(
    import_contract: Importer, httpx_mock: HTTPXMock
) -> None:
    # POST /leads admits source keys in this contract: `leads create` sends it as its
    # scheme says.
    import_contract(aspnet())
    httpx_mock.add_response(
        method="POST", url=f"{BASE_URL}/leads", status_code=202, json={"id": "L1"}
    )
    intake = ["leads", "create", "--field", "phone=+15125550143", "-o", "json"]
    accepted = run_cli(intake, env=token_env(token=SOURCE_KEY))
    assert accepted.exit_code == 0, accepted.stderr
    assert httpx_mock.get_requests()[0].headers["X-Source-Key"] == SOURCE_KEY
    # A contract whose POST /leads takes the bearer scheme only: refused before sending.
    document = aspnet()
    document["paths"]["/leads"]["post"]["security"] = [{"Bearer": []}]
    import_contract(document)
    assert run_cli(intake, env=token_env(token=SOURCE_KEY)).exit_code == 4
    assert run_cli(["api", "POST", "/leads"], env=token_env(token=SOURCE_KEY)).exit_code == 4
    assert len(httpx_mock.get_requests()) == 1


def test_one_operation_carries_what_the_contract_says_of_it(imported: Result) -> None:
    from leadctl.config.credential_use import Place, Requirement
    from leadctl.contract.operations import Idempotency, Operation
    from leadctl.contract.store import active_index, key_for_base_url

    env = {"LEADCTL_CACHE_DIR": os.environ["LEADCTL_CACHE_DIR"]}
    active = active_index(env, lambda: key_for_base_url(BASE_URL))

    def find(method: str, path: str) -> Operation:
        found = active.find(method, path)
        assert found is not None, f"{method} {path}"
        return Operation.of(found)

    payments = find("POST", "/payments")
    assert payments.retry_safe and payments.idempotency == Idempotency("header", "Idempotency-Key")
    assert [(p.name, p.where, p.required) for p in payments.parameters] == [
        ("Idempotency-Key", "header", False)
    ]
    tags = find("POST", "/tags/all")
    assert (
        tags.paged
        and tags.retry_safe
        and tags.body_schema == "#/components/schemas/RequestDataOptions"
    )
    assert tags.body_media == "application/*+json" and tags.response_kind == "collection"
    check = find("POST", "/suppressions/check")
    assert check.anonymous and not check.retry_safe
    intake = find("POST", "/intake/events")
    assert intake.kinds == {"source"}
    assert intake.requirements == (
        Requirement(frozenset({"source"}), (Place("header", "X-Source-Key", "key"),)),
    )


def test_contract_show_lists_retry_safety_and_credentials(imported: Result) -> None:
    rows = json.loads(run_cli(["contract", "show", "--operations", "-o", "json"]).stdout)
    by_command = {row["command"]: row for row in rows}
    assert by_command["tags list-all"]["retrySafe"] is True
    assert by_command["calls hangup"]["retrySafe"] is False
    assert by_command["suppressions check"]["credentials"] == "none"
    assert by_command["intake post-event"]["credentials"] == "source"
    assert by_command["leads create"]["credentials"] == "org,user,source"

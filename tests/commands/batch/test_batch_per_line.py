"""`batch` does per line what the single command does (issue 21 point 15), on the service's
own contract (tests/fixtures/contracts/traits-3.1.json, imported in process; pytest-httpx
answers): a query body for a collection read, read-modify-write for a full-replacement PUT,
and one confirmation for a destructive operation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env
from tests.support.imported_contracts import ImportedContracts

TRAITS = Path(__file__).resolve().parents[2] / "fixtures" / "contracts" / "traits-3.1.json"
LEAD = f"{BASE_URL}/leads/{{}}"
CURRENT = {
    "id": "lead_1",
    "firstName": "Grace",
    "lastName": "Hopper",
    "email": "grace@example.com",
    "phone": "+15125550100",
    "statusId": "st_new",
    "state": "TX",
    "processingStatus": "Accepted",
    "isArchived": False,
    "createdAt": "2026-11-01T10:00:00Z",
}


@pytest.fixture(autouse=True)
def service_contract(imported_contracts: ImportedContracts) -> None:
    # As `contract import` leaves it for token_env()'s service, imported once per session.
    imported_contracts.install(TRAITS, BASE_URL)


def batch(args: list[str], *, stdin: str = "", tty: bool = False) -> Any:
    return run_cli(["batch", *args], env=token_env(), stdin=stdin, clock=VirtualClock(), tty=tty)


def outcomes(stdout: str) -> list[dict[str, Any]]:
    return sorted((json.loads(line) for line in stdout.splitlines()), key=lambda r: r["row"])


# -- a collection read whose body is a query -----------------------------------------------


def test_a_query_read_line_with_only_its_path_parameter_sends_an_empty_query(
    httpx_mock: HTTPXMock,
) -> None:
    page = {"items": [], "pageSize": 50, "totalCount": None, "continuationToken": None}
    for lead in ("lead_1", "lead_2"):
        httpx_mock.add_response(method="POST", url=f"{BASE_URL}/leads/{lead}/events/all", json=page)

    result = batch(
        ["POST /leads/{id}/events/all", "--concurrency", "1"],
        stdin='lead_1\n{"id": "lead_2", "pageSize": 10}\n',
    )

    assert result.exit_code == 0, result.stderr
    assert [json.loads(r.content) for r in httpx_mock.get_requests()] == [{}, {"pageSize": 10}]


# -- a full-replacement PUT ---------------------------------------------------------------


def test_a_put_line_naming_only_what_changes_is_read_merged_and_sent_whole(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(
        method="GET", url=LEAD.format("lead_1"), json=CURRENT, headers={"ETag": '"v7"'}
    )
    httpx_mock.add_response(method="PUT", url=LEAD.format("lead_1"), json=CURRENT)

    result = batch(["PUT /leads/{id}"], stdin='{"id": "lead_1", "firstName": "Ada"}\n')

    assert result.exit_code == 0, result.stderr
    read, put = httpx_mock.get_requests()
    assert (read.method, put.method) == ("GET", "PUT")
    assert put.headers["If-Match"] == '"v7"'
    body = json.loads(put.content)
    # The line's change over everything the read had that the PUT takes (no read-only id).
    assert body["firstName"] == "Ada"
    assert body["lastName"] == "Hopper" and body["statusId"] == "st_new"
    assert "id" not in body and "createdAt" not in body
    [line] = outcomes(result.stdout)
    assert (line["outcome"], line["params"]) == ("ok", {"id": "lead_1"})


def test_a_put_line_that_gives_every_required_field_is_sent_as_it_is(
    httpx_mock: HTTPXMock,
) -> None:
    whole = {k: CURRENT[k] for k in ("firstName", "lastName", "email", "phone", "statusId")}
    httpx_mock.add_response(method="PUT", url=LEAD.format("lead_1"), json=CURRENT)

    result = batch(["PUT /leads/{id}"], stdin=json.dumps({"id": "lead_1", **whole}) + "\n")

    assert result.exit_code == 0, result.stderr
    [put] = httpx_mock.get_requests()  # no read
    assert json.loads(put.content) == whole


def test_a_put_changed_meanwhile_is_rejected_in_leadctls_words(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="GET", url=LEAD.format("lead_1"), json=CURRENT, headers={"ETag": '"v7"'}
    )
    httpx_mock.add_response(
        method="PUT",
        url=LEAD.format("lead_1"),
        status_code=412,
        json={"title": "Precondition Failed", "status": 412, "detail": "ETag mismatch (v8)"},
        headers={"Content-Type": "application/problem+json"},
    )

    result = batch(["PUT /leads/{id}"], stdin='{"id": "lead_1", "firstName": "Ada"}\n')

    assert result.exit_code == 6
    [line] = outcomes(result.stdout)
    assert line["outcome"] == "rejected" and line["status"] == 412
    assert line["error"]["detail"] == (
        "the resource changed after leadctl read it; nothing was replaced"
    )


def test_a_put_line_whose_read_fails_is_rejected_and_the_batch_goes_on(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(method="GET", url=LEAD.format("gone"), status_code=404)
    httpx_mock.add_response(method="GET", url=LEAD.format("lead_1"), json=CURRENT)
    httpx_mock.add_response(method="PUT", url=LEAD.format("lead_1"), json=CURRENT)

    result = batch(
        ["PUT /leads/{id}", "--concurrency", "1"],
        stdin='{"id": "gone", "firstName": "A"}\n{"id": "lead_1", "firstName": "B"}\n',
    )

    assert result.exit_code == 6, result.stderr
    found = outcomes(result.stdout)
    assert [(r["outcome"], r.get("status")) for r in found] == [("rejected", 404), ("ok", 200)]


def test_a_put_line_with_nothing_to_change_is_invalid(httpx_mock: HTTPXMock) -> None:
    result = batch(["PUT /leads/{id}"], stdin="lead_1\n")

    assert result.exit_code == 6
    [line] = outcomes(result.stdout)
    assert line["error"]["detail"] == "nothing to change: the line names no field"
    assert httpx_mock.get_requests() == []


# -- destructive operations ----------------------------------------------------------------


def test_a_destructive_batch_without_yes_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("lead_1\nlead_2\n")

    from_stdin = batch(["leads delete"], stdin="lead_1\n")
    from_file = batch(["leads delete", "--input", str(ids)])  # no terminal to ask on

    assert (from_stdin.exit_code, from_file.exit_code) == (2, 2)
    assert "--yes" in from_stdin.stderr and "--yes" in from_file.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    "operation",
    ["DELETE /leads/{id}", "organizations remove-member", "lead-statuses archive"],
)
def test_every_destructive_operation_needs_yes(httpx_mock: HTTPXMock, operation: str) -> None:
    result = batch([operation], stdin="x_1\n")

    assert result.exit_code == 2, result.stderr
    assert httpx_mock.get_requests() == []


def test_yes_confirms_once_for_the_whole_run(httpx_mock: HTTPXMock) -> None:
    for lead in ("lead_1", "lead_2"):
        httpx_mock.add_response(method="DELETE", url=LEAD.format(lead), status_code=204)

    result = batch(["leads delete", "--yes"], stdin="lead_1\nlead_2\n")

    assert result.exit_code == 0, result.stderr
    assert len(httpx_mock.get_requests()) == 2


@pytest.mark.parametrize(("answer", "code", "sent"), [("n\n", 10, 0), ("y\n", 0, 1)])
def test_on_a_terminal_a_destructive_batch_asks_once(
    httpx_mock: HTTPXMock, tmp_path: Path, answer: str, code: int, sent: int
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("lead_1\n")
    if sent:
        httpx_mock.add_response(method="DELETE", url=LEAD.format("lead_1"), status_code=204)

    result = batch(["leads delete", "--input", str(ids)], stdin=answer, tty=True)

    assert result.exit_code == code, result.stderr
    assert f"Send DELETE /leads/{{id}} (leads delete) for every line of {ids}?" in result.stderr
    assert len(httpx_mock.get_requests()) == sent


def test_a_missing_input_file_is_said_before_any_question(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    missing = tmp_path / "ids.txt"

    result = batch(["leads delete", "--input", str(missing)], stdin="y\n", tty=True)

    assert result.exit_code == 2, result.stderr
    assert f"{missing}: no such file" in result.stderr
    assert "Send DELETE" not in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_dry_run_of_a_destructive_batch_needs_no_yes(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["--dry-run", "batch", "leads delete"], env=token_env(), stdin="lead_1\n")

    assert result.exit_code == 0, result.stderr
    assert "-X DELETE https://api.example.test/leads/lead_1" in result.stdout
    assert httpx_mock.get_requests() == []


def test_a_read_is_not_destructive(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="GET", url=LEAD.format("lead_1"), json=CURRENT)

    result = batch(["GET /leads/{id}"], stdin="lead_1\n")

    assert result.exit_code == 0, result.stderr

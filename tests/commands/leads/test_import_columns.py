"""`leads import` columns (leadctl.bulk.columns, leadctl.bulk.rows): an export of `leads list`
imports back, a typo is refused before anything is read or sent, and a header of any width
is read in one pass (issue 21 point 15, issue 22 points 2 and 7)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.bulk.rows import read_rows
from tests.support.cli import BASE_URL, run_cli, token_env

URL = f"{BASE_URL}/leads"
# What `leads list -o csv` writes on the bundled contract (its default columns).
EXPORT_HEADER = (
    "id,firstName,lastName,phone,state,status.name,tags[].name,processingStatus,createdAt"
)


def import_cli(args: list[str]) -> Any:
    return run_cli(["leads", "import", *args], env=token_env())


def sent(httpx_mock: HTTPXMock) -> list[Any]:
    return [json.loads(request.content) for request in httpx_mock.get_requests()]


def test_an_export_imports_back_its_own_columns_read_as_lead_fields(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "n1"})
    export = tmp_path / "export.csv"
    export.write_text(
        f"{EXPORT_HEADER}\n"
        'l1,\'=HYPERLINK("http://x"),Lovelace,+15125550123,TX,New,hot;spring 2026,Accepted,'
        "2026-11-20T15:04:05Z\n",
        encoding="utf-8",
    )

    result = import_cli([str(export)])

    assert result.exit_code == 0, result.stderr
    assert sent(httpx_mock) == [
        {
            "firstName": '=HYPERLINK("http://x")',
            "lastName": "Lovelace",
            "phone": "+15125550123",
            "state": "TX",
            "tags": ["hot", "spring 2026"],
        }
    ]
    assert "tags[].name as tags" in result.stderr
    assert (
        "leaving out columns the service sets (an import creates new leads): createdAt, id, "
        "processingStatus, status.name"
    ) in result.stderr


@pytest.mark.parametrize(
    ("header", "message", "suggested"),
    [
        ("firstName,frstName", "column 'frstName' is not a field", "firstName"),
        ("firstName,emial", "column 'emial' is not a field", "email"),
        ("firstName,tags[].colour", "column 'tags[].colour' is not a field", None),
    ],
)
def test_a_column_that_is_no_field_is_exit_2_before_anything_is_read_or_sent(
    httpx_mock: HTTPXMock, tmp_path: Path, header: str, message: str, suggested: str | None
) -> None:
    leads = tmp_path / "leads.csv"
    leads.write_text(f"{header}\nAda,x\n", encoding="utf-8")

    result = import_cli([str(leads)])

    assert result.exit_code == 2
    assert message in result.stderr
    if suggested is not None:
        assert f"did you mean {suggested}" in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_file_of_only_the_services_columns_is_exit_2(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    leads = tmp_path / "ids.csv"
    leads.write_text("id,createdAt\nl1,2026-11-20T15:04:05Z\n", encoding="utf-8")

    result = import_cli([str(leads)])

    assert result.exit_code == 2
    assert "none of the columns is a field a lead is created with" in result.stderr
    assert httpx_mock.get_requests() == []


WIDE = 200_000  # 40,000 took 30 s and a million did not finish when reading was quadratic
BOUND = 60.0  # seconds: generous for a loaded machine, hours short of a quadratic read


def test_a_wide_header_is_read_in_one_pass() -> None:
    names = [f"c{n}" for n in range(WIDE)]
    lines = [(",".join(names) + "\n").encode(), (",".join("v" * WIDE) + "\n").encode()]
    started = time.monotonic()

    rows = list(read_rows(lines, "csv", prepare=lambda body: body, source="wide.csv"))

    assert time.monotonic() - started < BOUND
    assert rows[0].body is not None and len(rows[0].body) == WIDE


def test_a_wide_file_of_unknown_columns_is_refused_at_once(
    httpx_mock: HTTPXMock, tmp_path: Path
) -> None:
    wide = tmp_path / "wide.csv"
    names = ["firstName", *(f"x{n}" for n in range(WIDE))]
    wide.write_text(",".join(names) + "\n" + ",".join(["Ada"] * len(names)) + "\n")
    started = time.monotonic()

    result = import_cli([str(wide)])

    assert time.monotonic() - started < BOUND
    assert result.exit_code == 2
    assert "column 'x0' is not a field" in result.stderr
    assert httpx_mock.get_requests() == []


def test_many_list_columns_are_read_in_one_pass(httpx_mock: HTTPXMock, tmp_path: Path) -> None:
    """tags[] repeated: every cell joins one list (the bundled lead's tags)."""
    httpx_mock.add_response(method="POST", url=URL, status_code=202, json={"id": "n1"})
    wide = tmp_path / "tags.csv"
    wide.write_text(
        "firstName," + ",".join(["tags[]"] * WIDE) + "\nAda," + ",".join(["t"] * WIDE) + "\n"
    )
    started = time.monotonic()

    result = import_cli([str(wide)])

    assert time.monotonic() - started < BOUND
    assert result.exit_code == 0, result.stderr
    assert len(sent(httpx_mock)[0]["tags"]) == WIDE

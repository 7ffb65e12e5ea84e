"""``leadctl leads list`` in process.

`leadctl leads list` and `leads create`: the exact requests, bad input, output modes."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from leadctl.cli.app import invoke
from leadctl.iostreams import IOStreams
from tests.commands.leads._support import (
    BAD_LIST_INPUT,
    LEAD_A,
    LEAD_B,
    LEAD_C,
    LIST_URL,
    SOURCE_KEY,
    add_pages,
    sent_json,
)
from tests.support.cli import BASE_URL, ORG_KEY, FakeClock, run_cli, token_env
from tests.support.keyrings import DictKeyring
from tests.support.profiles import declared_profile


def test_list_sends_an_empty_query_and_prints_the_services_json(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [LEAD_A, LEAD_B], "pageSize": 25}
    )
    result = run_cli(["leads", "list"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_requests()[0]
    assert request.headers["Authorization"] == f"Bearer {ORG_KEY}"
    assert request.headers["Content-Type"] == "application/json"
    assert json.loads(request.content) == {}
    assert json.loads(result.stdout) == [LEAD_A, LEAD_B]
    assert result.stderr == ""


def test_list_sends_every_query_option(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": []})
    result = run_cli(
        [
            "leads",
            "list",
            "--search",
            "ada",
            "--search-field",
            "firstName",
            "--search-field",
            "email",
            "--filter",
            "state=TX",
            "--filter",
            "processingStatus=Accepted",
            "--range",
            "createdAt>=2026-11-01",
            "--range",
            "createdAt<2026-12-01",
            "--range",
            "lastName>A",
            "--range",
            "lastName<=M",
            "--order-by",
            "-createdAt",
            "--order-by",
            "lastName",
            "--page-size",
            "50",
        ],
        env={**token_env(), "TZ": "UTC"},
    )
    assert result.exit_code == 0, result.stderr
    assert sent_json(httpx_mock) == [
        {
            "search": "ada",
            "searchFields": ["firstName", "email"],
            "filters": [
                {"field": "state", "value": "TX"},
                {"field": "processingStatus", "value": "Accepted"},
            ],
            "rangeFilters": [
                {
                    "field": "createdAt",
                    "greaterThanOrEqual": "2026-11-01T00:00:00Z",
                    "lessThan": "2026-12-01T00:00:00Z",
                },
                {"field": "lastName", "greaterThan": "A", "lessThanOrEqual": "M"},
            ],
            "orderBy": [{"field": "createdAt", "direction": "desc"}, {"field": "lastName"}],
            "pageSize": 50,
        }
    ]
    assert result.stdout == "[]\n"


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("x=true", True),
        ("x=false", False),
        ("x=null", None),
        ("x=42", 42),
        ("x=-1.5", -1.5),
        ("x=TX", "TX"),
        ("x=+15125550143", "+15125550143"),
        ('x=["TX","CA"]', ["TX", "CA"]),
        ('x="42"', "42"),
        ("x=a=b", "a=b"),
        ("x=", ""),
    ],
)
def test_filter_values_are_typed_like_api_F(httpx_mock: HTTPXMock, raw: str, value: object) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": []})
    result = run_cli(["leads", "list", "--filter", raw], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert sent_json(httpx_mock) == [{"filters": [{"field": "x", "value": value}]}]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("createdAt>2026-01-01", {"greaterThan": "2026-01-01T00:00:00Z"}),
        ("createdAt>=2026-01-01", {"greaterThanOrEqual": "2026-01-01T00:00:00Z"}),
        ("createdAt<2026-01-01", {"lessThan": "2026-01-01T00:00:00Z"}),
        ("createdAt<=2026-01-01", {"lessThanOrEqual": "2026-01-01T00:00:00Z"}),
        (" createdAt >= 2026-01-01T00:00:00Z ", {"greaterThanOrEqual": "2026-01-01T00:00:00Z"}),
        ("score>=10", {"greaterThanOrEqual": 10}),
        ('zip<"10000"', {"lessThan": "10000"}),
    ],
)
def test_each_range_operator(httpx_mock: HTTPXMock, raw: str, expected: dict[str, Any]) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": []})
    result = run_cli(["leads", "list", "--range", raw], env={**token_env(), "TZ": "UTC"})
    assert result.exit_code == 0, result.stderr
    field = raw.strip().split(">")[0].split("<")[0].strip()
    assert sent_json(httpx_mock) == [{"rangeFilters": [{"field": field, **expected}]}]


@pytest.mark.parametrize(("argv", "message"), BAD_LIST_INPUT)
def test_bad_list_input_is_exit_2_and_sends_nothing(
    httpx_mock: HTTPXMock, argv: list[str], message: str
) -> None:
    result = run_cli(["leads", "list", *argv], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []


def test_all_follows_every_page_with_the_same_query(httpx_mock: HTTPXMock) -> None:
    query = {"filters": [{"field": "state", "value": "TX"}], "pageSize": 1}
    add_pages(httpx_mock, query)
    result = run_cli(
        ["leads", "list", "--filter", "state=TX", "--page-size", "1", "--all", "-o", "ndjson"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [
        "lead_a",
        "lead_b",
        "lead_c",
    ]


def test_limit_stops_after_n_items_across_pages(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 2},
        json={"items": [LEAD_A], "continuationToken": "t1"},
    )
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"pageSize": 2, "continuationToken": "t1"},
        json={"items": [LEAD_B, LEAD_C], "continuationToken": "t2"},
    )
    result = run_cli(
        ["leads", "list", "--limit", "2", "-o", "value", "--columns", "id"], env=token_env()
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "lead_a\nlead_b\n"


def test_cursor_resumes_from_the_token(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"orderBy": [{"field": "lastName"}], "continuationToken": "t2"},
        json={"items": [LEAD_C]},
    )
    result = run_cli(
        [
            "leads",
            "list",
            "--order-by",
            "lastName",
            "--cursor",
            "t2",
            "-o",
            "csv",
            "--columns",
            "id",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "id\nlead_c\n"


def test_the_default_table_colors_statuses_like_lead_statuses(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [LEAD_A, LEAD_B]})
    httpx_mock.add_response(
        method="GET",
        url=f"{BASE_URL}/lead-statuses",
        # A color no other test draws: rich keeps a style's escape codes for the process,
        # so one drawn earlier at 256 colors would come back at 256 here.
        json=[{"id": "st_new", "name": "New", "color": "#3b82f5"}],
    )
    env = {**token_env(), "COLUMNS": "200", "COLORTERM": "truecolor", "TERM": "xterm"}
    result = run_cli(["leads", "list"], env=env, tty=True)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[38;2;59;130;245mNew" in result.stdout


def test_filtered_csv_export(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={"filters": [{"field": "state", "value": "TX"}]},
        json={"items": [LEAD_A, LEAD_C]},
    )
    result = run_cli(
        ["leads", "list", "--filter", "state=TX", "-o", "csv", "--columns", "id,state"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "id,state\nlead_a,TX\nlead_c,TX\n"


def test_count_prints_only_the_total(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        match_json={
            "filters": [{"field": "state", "value": "TX"}],
            "includeCount": True,
            "pageSize": 1,
        },
        json={"items": [LEAD_A], "totalCount": 37, "continuationToken": "t1"},
    )
    result = run_cli(["leads", "list", "--filter", "state=TX", "--count"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "37\n"


def test_empty_list_is_success(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": None})
    result = run_cli(["leads", "list"], env=token_env(), tty=True)
    assert result.exit_code == 0
    assert "no results" in result.stderr


@pytest.mark.parametrize(("status", "code"), [(400, 6), (401, 3), (403, 4), (404, 5)])
def test_list_error_statuses(httpx_mock: HTTPXMock, status: int, code: int) -> None:
    httpx_mock.add_response(
        method="POST",
        url=LIST_URL,
        status_code=status,
        headers={"Content-Type": "application/problem+json"},
        json={"title": "Nope", "status": status, "traceId": "trace-1"},
    )
    result = run_cli(["leads", "list"], env=token_env())
    assert result.exit_code == code
    assert result.stdout == ""
    assert "trace id: trace-1" in result.stderr


def test_list_with_a_source_key_is_exit_4_before_sending(
    httpx_mock: HTTPXMock, memory_keyring: DictKeyring
) -> None:
    declared_profile(memory_keyring, value=SOURCE_KEY, kind="source")
    result = run_cli(["leads", "list"])
    assert result.exit_code == 4
    assert SOURCE_KEY not in result.stderr
    assert httpx_mock.get_requests() == []


def test_order_direction_property_can_be_renamed_by_the_profile(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", json={"items": []})
    assert run_cli(["profile", "set", "order_direction_key", "sortDirection"]).exit_code == 0
    result = run_cli(["leads", "list", "--order-by", "-createdAt"], env=token_env())
    assert result.exit_code == 0, result.stderr
    request = httpx_mock.get_request()
    assert request is not None
    assert json.loads(request.content)["orderBy"] == [
        {"field": "createdAt", "sortDirection": "desc"}
    ]


@pytest.mark.parametrize(
    ("before", "after", "stderr_tty", "noted"),
    [
        ([], [], True, True),  # a person watching stderr
        ([], [], False, True),  # cron: stdin closed, stderr to a log
        (["-q"], [], False, False),  # -q silences it
        ([], ["--limit", "2"], False, False),  # at most 2 was asked for: nothing partial
    ],
)
def test_one_page_of_more_says_so_on_stderr_whatever_it_is(
    httpx_mock: HTTPXMock, before: list[str], after: list[str], stderr_tty: bool, noted: bool
) -> None:
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [LEAD_A, LEAD_B], "continuationToken": "t1"}
    )
    merged = {**os.environ, **token_env()}
    ios = IOStreams.for_test(stdout_tty=False, stderr_tty=stderr_tty, env=merged)
    args = [*before, "leads", "list", "-o", "csv", *after]
    code = invoke(args, ios=ios, env=merged, clock=FakeClock())
    assert code == 0
    err = ios.stderr.getvalue()  # type: ignore[attr-defined]
    assert ios.stdout.getvalue().count("\n") == 3  # type: ignore[attr-defined]
    if noted:
        assert err == (
            "wrote 2 items, one page; more exist: add --all for every page, "
            "or --cursor t1 for the next\n"
        )
    else:
        assert err == ""


def test_a_cursor_with_spaces_is_offered_quoted_for_the_shell(httpx_mock: HTTPXMock) -> None:
    """Pasted into a shell, the note's --cursor gives the service its token byte for byte."""
    token = "p 2+/=%"
    httpx_mock.add_response(
        method="POST", url=LIST_URL, json={"items": [LEAD_A], "continuationToken": token}
    )
    merged = {**os.environ, **token_env()}
    ios = IOStreams.for_test(stdout_tty=False, stderr_tty=True, env=merged)
    assert invoke(["leads", "list", "-o", "csv"], ios=ios, env=merged, clock=FakeClock()) == 0
    err = ios.stderr.getvalue()  # type: ignore[attr-defined]
    offered = shlex.split(err.split(", or ", 1)[1].removesuffix(" for the next\n"))
    assert offered == ["--cursor", token]


def test_no_note_when_the_one_page_was_the_last(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [LEAD_A]})
    merged = {**os.environ, **token_env()}
    ios = IOStreams.for_test(stdout_tty=False, stderr_tty=True, env=merged)
    assert invoke(["leads", "list", "-o", "csv"], ios=ios, env=merged, clock=FakeClock()) == 0
    assert ios.stderr.getvalue() == ""  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("zone_setting", "raw", "sent"),
    [
        # A time without an offset is in the profile's zone, else the system's (TZ).
        ({"TZ": "America/Chicago"}, "createdAt>=2026-12-01T09:30", "2026-12-01T15:30:00Z"),
        ({"TZ": "America/Chicago"}, "createdAt>=2026-07-01", "2026-07-01T05:00:00Z"),
        ({"TZ": "UTC", "profile": "Asia/Tokyo"}, "createdAt<2026-12-01", "2026-11-30T15:00:00Z"),
        ({"TZ": "America/Chicago"}, "createdAt>=2026-12-01T09:30Z", "2026-12-01T09:30:00Z"),
        # Relative forms count from the clock (2026-11-21 12:00 UTC in tests).
        ({"TZ": "UTC"}, "createdAt>=-7d", "2026-11-14T12:00:00Z"),
        ({"TZ": "UTC"}, "createdAt>=-2h", "2026-11-21T10:00:00Z"),
        ({"TZ": "America/Chicago"}, "createdAt>=today", "2026-11-21T06:00:00Z"),
        ({"TZ": "America/Chicago"}, "createdAt>=yesterday", "2026-11-20T06:00:00Z"),
    ],
)
def test_range_times_are_read_in_the_local_zone_and_sent_in_utc(
    httpx_mock: HTTPXMock, tmp_path: Path, zone_setting: dict[str, str], raw: str, sent: str
) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": []})
    env = {**token_env(), "TZ": zone_setting["TZ"], "LEADCTL_CONFIG_DIR": str(tmp_path)}
    args = ["leads", "list", "--range", raw]
    if "profile" in zone_setting:
        (tmp_path / "config.toml").write_text(
            f'[profiles.default]\ntimezone = "{zone_setting["profile"]}"\n'
        )
    result = run_cli(args, env=env)
    assert result.exit_code == 0, result.stderr
    bound = next(
        iter(v for k, v in sent_json(httpx_mock)[0]["rangeFilters"][0].items() if k != "field")
    )
    assert bound == sent


def test_a_number_in_a_range_is_not_taken_for_a_date(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": []})
    result = run_cli(["leads", "list", "--range", "score>=20261121"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert sent_json(httpx_mock)[0]["rangeFilters"] == [
        {"field": "score", "greaterThanOrEqual": 20261121}
    ]


def test_list_run_sends_the_options_as_request_data_options(httpx_mock: HTTPXMock) -> None:
    from leadctl.commands.leads import list_
    from leadctl.http.paging_flags import Paging
    from tests.support.run_context import direct_context, stdout_of

    httpx_mock.add_response(method="POST", url=LIST_URL, json={"items": [LEAD_A, LEAD_B]})
    ctx = direct_context(output="value", columns=["id"])
    opts = list_.Options(
        search="ada", filters=("state=TX",), order_by=("-createdAt",), paging=Paging(page_size=2)
    )
    list_.run(opts, ctx)
    assert sent_json(httpx_mock) == [
        {
            "search": "ada",
            "filters": [{"field": "state", "value": "TX"}],
            "orderBy": [{"field": "createdAt", "direction": "desc"}],
            "pageSize": 2,
        }
    ]
    assert stdout_of(ctx) == "lead_a\nlead_b\n"

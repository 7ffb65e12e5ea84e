"""``leadctl numbers status`` in process.

``leadctl numbers status``: the exact request, input checks before sending, and output."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.numbers._support import (
    NUMBER,
    STATUS_URL,
    number_status,
    set_profile,
    spark_line,
    squeeze,
    stub,
    view,
)
from tests.support.cli import BASE_URL, run_cli, token_env


def test_e164_input_is_sent_percent_encoded_with_no_query(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run_cli(["numbers", "status", NUMBER], env=token_env())
    assert result.exit_code == 0, result.stderr
    (request,) = httpx_mock.get_requests()
    assert request.method == "GET"
    assert request.url.raw_path == b"/phone-numbers/%2B14155550123/status"
    assert request.url.query == b""
    assert request.headers["Authorization"] == "Bearer " + token_env()["LEADCTL_TOKEN"]


@pytest.mark.parametrize("typed", ["+1 (415) 555-0123", " +1.415.555.0123 ", "tel:+1-415-555-0123"])
def test_international_spellings_become_e164(httpx_mock: HTTPXMock, typed: str) -> None:
    stub(httpx_mock)
    result = run_cli(["numbers", "status", typed], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].url.raw_path == b"/phone-numbers/%2B14155550123/status"


def test_national_input_uses_the_profile_region(httpx_mock: HTTPXMock) -> None:
    set_profile(("region", "US"))
    stub(httpx_mock)
    result = run_cli(["numbers", "status", "(415) 555-0123"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].url.raw_path == b"/phone-numbers/%2B14155550123/status"


def test_national_input_in_another_region(httpx_mock: HTTPXMock) -> None:
    set_profile(("region", "GB"))
    url = f"{BASE_URL}/phone-numbers/%2B442079460018/status"
    stub(httpx_mock, url=url, json={"number": "+442079460018"})
    result = run_cli(["numbers", "status", "020 7946 0018", "-o", "json"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"number": "+442079460018"}


@pytest.mark.parametrize(
    ("flags", "query"),
    [
        (["--window-days", "30"], "windowDays=30"),
        (["--window-days", "14", "--end", "2026-10-30"], "windowDays=14&endDate=2026-10-30"),
        (
            ["--start", "2026-10-01", "--end", "2026-10-01"],
            "startDate=2026-10-01&endDate=2026-10-01",
        ),
        (["--window-days", "3", "--start", "2026-10-01"], "windowDays=3&startDate=2026-10-01"),
    ],
)
def test_window_parameters_use_the_assumed_names(
    httpx_mock: HTTPXMock, flags: list[str], query: str
) -> None:
    stub(httpx_mock, url=f"{STATUS_URL}?{query}")
    result = run_cli(["numbers", "status", NUMBER, *flags], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].url.query.decode() == query


def test_the_profile_renames_the_window_parameters(httpx_mock: HTTPXMock) -> None:
    set_profile(
        ("phone_status_window_days_param", "days"),
        ("phone_status_start_param", "from"),
        ("phone_status_end_param", "to"),
    )
    stub(httpx_mock, url=f"{STATUS_URL}?days=5&to=2026-11-20")
    result = run_cli(
        ["numbers", "status", NUMBER, "--window-days", "5", "--end", "2026-11-20"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    stub(httpx_mock, url=f"{STATUS_URL}?from=2026-11-01&to=2026-11-20")
    result = run_cli(
        ["numbers", "status", NUMBER, "--start", "2026-11-01", "--end", "2026-11-20"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    queries = [r.url.query.decode() for r in httpx_mock.get_requests()]
    assert queries == ["days=5&to=2026-11-20", "from=2026-11-01&to=2026-11-20"]


def test_one_renamed_parameter_leaves_the_others_assumed(httpx_mock: HTTPXMock) -> None:
    set_profile(("phone_status_start_param", "since"))
    stub(httpx_mock, url=f"{STATUS_URL}?windowDays=2&since=2026-11-01")
    result = run_cli(
        ["numbers", "status", NUMBER, "--window-days", "2", "--start", "2026-11-01"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr


def test_help_states_the_assumed_parameter_names() -> None:
    result = run_cli(["numbers", "status", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for word in (
        "windowDays",
        "startDate",
        "endDate",
        "phone_status_window_days_param",
        "phone_status_start_param",
        "phone_status_end_param",
        "profile set region US",
        "Examples:",
    ):
        assert word in text


def test_national_input_without_a_region_says_how_to_fix_it(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["numbers", "status", "415 555 0123"], env=token_env())
    assert result.exit_code == 2
    assert "'415 555 0123'" in result.stderr
    assert "+E.164" in result.stderr
    assert "leadctl profile set region US" in result.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("+1415555012", "'+1415555012'"),  # one digit short: parses, but is not valid
        ("+1 415 555 0123 ext. 7", "extension"),
        ("+999 123 4567", "'+999 123 4567'"),
        ("not-a-number", "'not-a-number'"),
        ("+", "'+'"),
        ("   ", "must not be empty"),
        ("+44 20 7946 001", "'+44 20 7946 001'"),
    ],
)
def test_bad_numbers_are_refused_naming_the_input(
    httpx_mock: HTTPXMock, typed: str, shown: str
) -> None:
    result = run_cli(["numbers", "status", typed], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("error: ")
    assert shown in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert httpx_mock.get_requests() == []


def test_a_national_number_invalid_in_the_region_is_refused(httpx_mock: HTTPXMock) -> None:
    set_profile(("region", "US"))
    result = run_cli(["numbers", "status", "555 0123"], env=token_env())
    assert result.exit_code == 2
    assert "'555 0123'" in result.stderr
    assert "US" in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_hand_edited_bad_region_blocks_only_national_numbers(
    httpx_mock: HTTPXMock, isolated_env: Any
) -> None:
    config = isolated_env / "config"
    config.mkdir()
    (config / "config.toml").write_text('[profiles.default]\nregion = "XX"\n')
    result = run_cli(["numbers", "status", "415 555 0123"], env=token_env())
    assert result.exit_code == 2
    assert "'XX'" in result.stderr
    assert httpx_mock.get_requests() == []
    stub(httpx_mock)
    assert run_cli(["numbers", "status", NUMBER], env=token_env()).exit_code == 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--window-days", "0"], "--window-days"),
        (["--window-days", "-3"], "--window-days"),
        (["--window-days", "week"], "--window-days"),
        (["--start", "2026-13-01"], "'2026-13-01'"),
        (["--end", "2026-02-30"], "'2026-02-30'"),
        (["--start", "11/21/2026"], "'11/21/2026'"),
        (["--start", "20261121"], "'20261121'"),
        (["--end", "last week"], "'last week'"),
        (["--start", "2026-11-21", "--end", "2026-11-20"], "before --start"),
        (
            ["--window-days", "7", "--start", "2026-11-01", "--end", "2026-11-07"],
            "cannot be combined",
        ),
    ],
)
def test_bad_window_input_is_refused_before_sending(
    httpx_mock: HTTPXMock, flags: list[str], message: str
) -> None:
    result = run_cli(["numbers", "status", NUMBER, *flags], env=token_env())
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert httpx_mock.get_requests() == []


def test_a_profile_giving_two_parameters_one_name_is_refused(httpx_mock: HTTPXMock) -> None:
    set_profile(("phone_status_start_param", "d"), ("phone_status_end_param", "d"))
    result = run_cli(
        ["numbers", "status", NUMBER, "--start", "2026-11-01", "--end", "2026-11-02"],
        env=token_env(),
    )
    assert result.exit_code == 2
    assert "'d'" in result.stderr
    assert httpx_mock.get_requests() == []


def test_missing_number_is_a_usage_error(httpx_mock: HTTPXMock) -> None:
    result = run_cli(["numbers", "status"], env=token_env())
    assert result.exit_code == 2
    assert httpx_mock.get_requests() == []


def test_json_is_the_services_json_unchanged(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run_cli(["numbers", "status", NUMBER], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == number_status()


def test_ndjson_is_one_line(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run_cli(["numbers", "status", NUMBER, "-o", "ndjson"], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1
    assert json.loads(result.stdout) == number_status()


def test_csv_is_one_flat_summary_row(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run_cli(["numbers", "status", NUMBER, "-o", "csv"], env=token_env())
    assert result.exit_code == 0, result.stderr
    header, row = result.stdout.splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    assert values["number"] == NUMBER
    assert values["messagesPossible"] == "1"
    assert values["outboundCapacity.capacityAvailable"] == "true"
    assert values["outboundCapacity.smsRemainingToday"] == "850"
    assert values["smsWarmup.status"] == "In Progress"
    assert values["optOutMetrics.optOutRatePercent"] == "1.2"
    assert values["trafficMetrics.smsSentCount"] == "340"


def test_value_with_columns_for_scripts(httpx_mock: HTTPXMock) -> None:
    stub(httpx_mock)
    result = run_cli(
        [
            "numbers",
            "status",
            NUMBER,
            "-o",
            "value",
            "--columns",
            "outboundCapacity.capacityAvailable,outboundCapacity.voiceRemainingToday",
        ],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "true\t0\n"


def test_terminal_view_without_color(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, env={"NO_COLOR": "1"}, tty=True)
    assert "\x1b" not in out
    assert "● capacity available" in out
    assert "health Healthy: All limits normal" in out
    assert "✓ SMS approved" in out and "✓ SMS ramping" in out and "✗ voice not ramping" in out
    lines = out.splitlines()
    # every capacity row: label, a bar of filled/empty blocks, used / limit, left, reset
    sms_minute = next(line for line in lines if "this minute" in line and "SMS" in line)
    assert re.search(r"this minute\s+█+░+\s+9 / 10\s+1\s+resets in 42s", sms_minute)
    sms_hour = next(line for line in lines if "this hour" in line and "120 / 200" in line)
    assert "resets in 14m" in sms_hour
    voice_today = next(line for line in lines if "60 / 60" in line)
    assert "░" not in voice_today  # exhausted: a full bar
    assert "resets in 12h" in voice_today
    # gauges start in the same column: aligned
    bars = [re.search("[█░]", line).start() for line in lines if "resets in" in line]  # type: ignore[union-attr]
    assert len(bars) == 6 and len(set(bars)) == 1
    assert "status In Progress" in out and "health Good (score 82)" in out
    assert "45.5%" in out and "Warming up · Daily limits grow" in out
    assert "1.20% opt-out rate" in out and "3 opted out of 250 contacted" in out
    assert squeeze(spark_line(out, "SMS sent")) == "▁▂▃▆█▅▃"  # per day, scaled to the peak
    assert "340 total · peak 120" in out
    assert "Nov 15" in out and "Nov 21" in out
    assert "2m ago" in out and "→ out" in out and "← in" in out
    assert "+14155550199 → +14155550123" in out
    assert "OPT-OUT" in out
    assert not any(line.endswith(" ") for line in lines)


def test_terminal_view_with_color_marks_usage(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, tty=True)
    assert "\x1b[" in out
    red_bar = re.compile(r"\x1b\[[0-9;]*31m█+")  # the exhausted voice bar
    green_bar = re.compile(r"\x1b\[[0-9;]*32m█+")  # 150 of 1000 SMS today
    assert red_bar.search(out) and green_bar.search(out)


def test_table_requested_on_a_pipe_draws_the_view_without_escapes(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, "-o", "table")
    assert "\x1b" not in out
    assert "this minute" in out and squeeze(spark_line(out, "SMS sent")) == "▁▂▃▆█▅▃"


def test_table_with_columns_is_a_field_view(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, "--columns", "number,smsWarmup.status", tty=True)
    assert NUMBER in out and "In Progress" in out
    assert "this minute" not in out


def test_view_survives_a_sparse_answer(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, data={"number": NUMBER}, env={"NO_COLOR": "1"}, tty=True)
    assert "capacity not reported" in out
    assert "outbound capacity: not reported by the service" in out
    assert "recent events: not reported by the service" in out


def test_view_survives_odd_types_and_escapes_control_characters(httpx_mock: HTTPXMock) -> None:
    data = number_status()
    data["outboundCapacity"]["smsUsedToday"] = "lots"
    data["outboundCapacity"]["smsDailyResetsAt"] = "soon"
    data["smsWarmup"]["uiState"] = "weird"
    data["trafficMetrics"]["trend"] = [{"label": "x", "smsSentCount": None}, 7]
    data["recentEvents"][0]["textPreview"] = "\x1b]0;pwned\x07 hello [bold]x[/bold]"
    data["recentEvents"].append("not an event")
    out = view(httpx_mock, data=data, env={"NO_COLOR": "1"}, tty=True)
    assert "\x1b" not in out and "\x07" not in out
    assert "[bold]x[/bold]" in out  # service text is data, never markup
    assert "not reported" in out


def test_a_long_trend_is_merged_to_fit_one_line(httpx_mock: HTTPXMock) -> None:
    data = number_status()
    data["trafficMetrics"]["trend"] = [
        {"label": f"d{i}", "smsSentCount": i, "smsFailedCount": 0} for i in range(365)
    ]
    out = view(httpx_mock, data=data, env={"NO_COLOR": "1", "COLUMNS": "100"}, tty=True)
    spark = spark_line(out, "SMS sent")
    assert 8 <= len(spark) <= 100 - 14
    assert "buckets per block" in out


def test_the_view_fits_an_80_column_terminal(httpx_mock: HTTPXMock) -> None:
    out = view(httpx_mock, env={"NO_COLOR": "1", "COLUMNS": "80"}, tty=True)
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "resets in 14m" in out


@pytest.mark.parametrize(("status", "code"), [(400, 6), (401, 3), (403, 4), (404, 5)])
def test_error_statuses_map_to_exit_codes(httpx_mock: HTTPXMock, status: int, code: int) -> None:
    httpx_mock.add_response(
        url=STATUS_URL,
        status_code=status,
        json={"title": "nope", "detail": "not your number", "traceId": "t-1"},
        headers={"Content-Type": "application/problem+json"},
    )
    result = run_cli(["numbers", "status", NUMBER], env=token_env())
    assert result.exit_code == code
    assert result.stdout == ""
    assert "not your number" in result.stderr and "t-1" in result.stderr


@pytest.mark.parametrize(
    ("flags", "zone", "query"),
    [
        # The test clock reads 2026-11-21 12:00 UTC: 06:00 in Chicago, 21:00 in Tokyo.
        (
            ["--start", "yesterday", "--end", "today"],
            "UTC",
            "startDate=2026-11-20&endDate=2026-11-21",
        ),
        (["--start", "-7d"], "America/Chicago", "startDate=2026-11-14"),
        (["--end", "today"], "Asia/Tokyo", "endDate=2026-11-21"),
        (["--start", "-1d"], "Pacific/Kiritimati", "startDate=2026-11-21"),
    ],
)
def test_window_days_can_be_relative_to_today_in_the_local_zone(
    httpx_mock: HTTPXMock, flags: list[str], zone: str, query: str
) -> None:
    stub(httpx_mock, url=f"{STATUS_URL}?{query}")
    result = run_cli(["numbers", "status", NUMBER, *flags], env={**token_env(), "TZ": zone})
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("given", "day"),
    [
        # The clock's now is Saturday 2026-11-21 12:00 UTC (tests/support/cli.FakeClock).
        ("last monday", "2026-11-16"),
        ("monday", "2026-11-16"),
        ("saturday", "2026-11-21"),
        ("last saturday", "2026-11-14"),
        ("-7d", "2026-11-14"),
        ("yesterday 09:00", "2026-11-20"),
    ],
)
def test_the_window_takes_the_time_forms_of_other_flags(
    httpx_mock: HTTPXMock, given: str, day: str
) -> None:
    """Issue 34: the phone-number status's window as people say it, --since as --start."""
    set_profile(("timezone", "UTC"))
    stub(httpx_mock, url=f"{STATUS_URL}?startDate={day}")
    result = run_cli(["numbers", "status", NUMBER, "--since", given], env=token_env())
    assert result.exit_code == 0, result.stderr
    assert httpx_mock.get_requests()[0].url.query.decode() == f"startDate={day}"

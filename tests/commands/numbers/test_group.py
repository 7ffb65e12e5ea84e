"""``leadctl numbers``, what its verbs share.

``leadctl numbers status``: the exact request, input checks before sending, and output."""

from __future__ import annotations

import pytest
from pytest_httpx import HTTPXMock

from tests.commands.numbers._support import NUMBER
from tests.support.cli import run_cli, token_env


def test_dry_run_prints_the_request_and_sends_nothing(httpx_mock: HTTPXMock) -> None:
    result = run_cli(
        ["--dry-run", "numbers", "status", "+1 415 555 0123", "--window-days", "9"],
        env=token_env(),
    )
    assert result.exit_code == 0, result.stderr
    assert "/phone-numbers/%2B14155550123/status?windowDays=9" in result.stdout
    assert token_env()["LEADCTL_TOKEN"] not in result.stdout
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0.4, "now"),
        (42, "in 42s"),
        (-42, "42s ago"),
        (190, "in 3m 10s"),
        (14 * 60 + 20, "in 14m"),
        (2 * 3600 - 2, "in 2h"),
        (3 * 3600 + 5 * 60, "in 3h 5m"),
        (-(26 * 3600), "1d 2h ago"),
        (9 * 86400 + 3600, "in 9d"),
    ],
)
def test_relative_times_read_like_speech(seconds: float, shown: str) -> None:
    from datetime import datetime, timedelta, timezone

    from leadctl.views.timefmt import relative

    now = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
    when = (now + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")
    assert relative(when, now) == shown


def test_relative_times_take_any_fraction_and_offset() -> None:
    from datetime import datetime, timezone

    from leadctl.views.timefmt import relative

    now = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
    assert relative("2026-11-21T13:14:00.1234567+01:00", now) == "in 14m"
    assert relative("not a time", now) is None


def test_run_refuses_an_end_before_the_start_and_sends_nothing() -> None:
    from leadctl.commands.numbers.status import Options, run
    from leadctl.errors import UsageError
    from tests.support.run_context import direct_context

    with pytest.raises(UsageError, match="--end 2026-11-01 is before --start 2026-11-05"):
        run(Options(NUMBER, start="2026-11-05", end="2026-11-01"), direct_context())

"""Retry-After values no command should obey literally (issue 22.4, "look for other such
crashes"): thousands of digits (Python's int limit), a non-ASCII digit, a wait longer than
a day (1e12 s overflowed time.sleep), a date in the year 99999. Each is ignored like any
unusable value: the retry backs off instead, and the command goes on."""

from __future__ import annotations

import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, FakeClock, run_cli, token_env

URL = f"{BASE_URL}/lead-statuses"
FIRST_BACKOFF_CEILING = 0.5


@pytest.mark.parametrize(
    "value",
    [
        b"9" * 5000,
        b"1e12",
        b"86401",
        b"\xb2",  # a superscript two in Latin-1: str.isdigit() says yes, int() says no
        b"Wed, 21 Oct 99999 07:28:00 GMT",
        b"nan",
    ],
)
def test_an_unusable_retry_after_is_ignored_and_the_retry_backs_off(
    httpx_mock: HTTPXMock, value: bytes
) -> None:
    httpx_mock.add_response(url=URL, status_code=429, headers=[(b"Retry-After", value)])
    httpx_mock.add_response(url=URL, json=[])
    clock = FakeClock()
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert len(clock.sleeps) == 1 and clock.sleeps[0] <= FIRST_BACKOFF_CEILING


def test_a_retry_after_of_a_day_is_still_obeyed(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": "86400"})
    httpx_mock.add_response(url=URL, json=[])
    clock = FakeClock()
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [86400.0]

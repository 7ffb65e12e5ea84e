"""How long the client waits between attempts (cli.md "Retries"), observed through the
command line with an injected clock: the 20 s cap, full jitter, Retry-After as seconds and
as an HTTP date (exact, no jitter)."""

from __future__ import annotations

from datetime import timedelta
from email.utils import format_datetime

from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, FakeClock, run_cli, token_env

URL = f"{BASE_URL}/lead-statuses"
BASE = 0.5  # the first retry's ceiling; each next one doubles it


def ceilings(count: int) -> list[float]:
    return [min(20.0, BASE * 2**attempt) for attempt in range(count)]


def test_backoff_is_jittered_and_never_longer_than_20_seconds(httpx_mock: HTTPXMock) -> None:
    retries = 12
    for _ in range(retries + 1):
        httpx_mock.add_response(url=URL, status_code=503, json={"title": "busy"})
    clock = FakeClock()
    args = ["--max-retries", str(retries), "lead-statuses", "list"]
    result = run_cli(args, env=token_env(), clock=clock)
    assert result.exit_code != 0
    assert len(clock.sleeps) == retries
    # Uncapped, the last six ceilings would be 32 s to 1024 s: their draws would all stay
    # under 20 s about once in a million runs.
    assert max(clock.sleeps) <= 20.0
    assert all(0 <= s <= c for s, c in zip(clock.sleeps, ceilings(retries), strict=True))
    # Full jitter: a draw below its ceiling (without jitter every wait is the ceiling).
    assert any(s < c for s, c in zip(clock.sleeps, ceilings(retries), strict=True))


def test_retry_after_seconds_is_waited_exactly(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": "3"})
    httpx_mock.add_response(url=URL, json=[])
    clock = FakeClock()
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [3.0]
    assert "retrying in 3s: 429 rate limited" in result.stderr


def test_retry_after_as_an_http_date_is_read_against_the_clock(httpx_mock: HTTPXMock) -> None:
    clock = FakeClock()
    when = format_datetime(clock.start + timedelta(seconds=7), usegmt=True)
    httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": when})
    httpx_mock.add_response(url=URL, json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [7.0]


def test_a_retry_after_date_in_the_past_retries_at_once(httpx_mock: HTTPXMock) -> None:
    clock = FakeClock()
    when = format_datetime(clock.start - timedelta(minutes=5), usegmt=True)
    httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": when})
    httpx_mock.add_response(url=URL, json=[])
    result = run_cli(["lead-statuses", "list", "-o", "json"], env=token_env(), clock=clock)
    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [0.0]

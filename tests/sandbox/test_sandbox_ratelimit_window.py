"""--rate-limit N/WINDOWs (a fixed window per credential), --no-retry-after, and the bad
values of --rate-limit and --leads (exit 2 naming the problem)."""

from __future__ import annotations

import pytest

from leadctl_sandbox.errors import SandboxUsageError
from leadctl_sandbox.ratelimit import FixedWindowLimiter, RateLimit, parse_rate_limit
from tests.support.e2e import run_leadctl
from tests.support.sandbox_server import sandbox_server

pytestmark = pytest.mark.e2e


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", RateLimit(5.0)),
        ("0.5", RateLimit(0.5)),
        ("300/60s", RateLimit(300.0, 60.0)),
        ("300/60", RateLimit(300.0, 60.0)),
        ("10/1m", RateLimit(10.0, 60.0)),
        ("1000/1h", RateLimit(1000.0, 3600.0)),
        ("3/2.5s", RateLimit(3.0, 2.5)),
    ],
)
def test_rate_limit_forms(text: str, expected: RateLimit) -> None:
    assert parse_rate_limit(text) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("fast", "expected N (requests per second) or N/WINDOW"),
        ("300/60x", "expected N (requests per second) or N/WINDOW"),
        ("300/", "expected N (requests per second) or N/WINDOW"),
        ("300/0s", "the window must be longer than 0 s"),
        ("0/60s", "N must be at least 1 request"),
        ("0", "must be a positive number"),
        ("-3", "must be a positive number"),
        ("nan", "must be a positive number"),
    ],
)
def test_bad_rate_limits_name_the_problem(text: str, problem: str) -> None:
    with pytest.raises(SandboxUsageError) as raised:
        parse_rate_limit(text)
    assert problem in raised.value.message and repr(text) in raised.value.message


def test_the_fixed_window_counts_per_credential_and_resets_at_the_boundary() -> None:
    clock = Clock(120.0)
    limiter = FixedWindowLimiter(3, 60.0, clock=clock)
    assert [limiter.check("a") for _ in range(3)] == [None, None, None]
    clock.now = 150.2
    assert limiter.check("a") == 30  # the window [120, 180) is used up: 29.8 s, rounded up
    assert limiter.check("b") is None  # another credential has its own count
    clock.now = 179.9
    assert limiter.check("a") == 1
    clock.now = 180.0
    assert [limiter.check("a") for _ in range(4)] == [None, None, None, 60]


def test_serve_limits_per_window_and_says_when() -> None:
    with sandbox_server(extra_args=["--rate-limit", "4/3600s"]) as sandbox:
        with sandbox.client() as api:
            statuses = [api.get("/lead-statuses").status_code for _ in range(5)]
            assert statuses == [200, 200, 200, 200, 429]
            limited = api.get("/lead-statuses")
            assert limited.status_code == 429
            assert limited.headers["content-type"] == "application/problem+json"
            retry_after = int(limited.headers["retry-after"])
            assert 1 <= retry_after <= 3600
        with sandbox.client(sandbox.credentials.user) as other:
            assert other.get("/lead-statuses").status_code == 200


def test_no_retry_after_sends_429_without_the_header() -> None:
    with sandbox_server(extra_args=["--rate-limit", "1/3600s", "--no-retry-after"]) as sandbox:
        with sandbox.client() as api:
            assert api.get("/lead-statuses").status_code == 200
            limited = api.get("/lead-statuses")
        assert limited.status_code == 429
        assert "retry-after" not in limited.headers


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--rate-limit", "lots"], "--rate-limit 'lots': expected N"),
        (["--rate-limit", "300/0s"], "the window must be longer than 0 s"),
        (["--leads", "-1"], "--leads -1: must be between 0 and 10,000,000"),
        (["--leads", "10000001"], "--leads 10000001: must be between 0 and 10,000,000"),
    ],
)
def test_bad_serve_options_exit_2_naming_the_problem(args: list[str], problem: str) -> None:
    result = run_leadctl(["sandbox", "serve", "--memory", "--port", "0", *args], timeout=30)
    assert result.exit_code == 2, result.stderr
    assert problem in result.stderr
    assert result.stdout == ""
    assert "Traceback" not in result.stderr

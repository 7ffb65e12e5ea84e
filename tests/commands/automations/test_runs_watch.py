"""``automations runs --watch`` in process: the polling's pauses on an injected clock (no
real sleeping), Retry-After, the profile's rate limit, --wait-timeout and Ctrl-C."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pytest_httpx import HTTPXMock

from tests.commands.automations._support import AUTOMATION, RUNS_URL, other_runs
from tests.support.cli import VirtualClock, run_cli, token_env


def running() -> dict[str, Any]:
    """The demo's waiting run, still going."""
    return other_runs()[1] | {"id": "run_live", "status": "Running", "statusDisplay": "Running"}


def completed() -> dict[str, Any]:
    return running() | {
        "status": "Completed",
        "statusDisplay": "Completed",
        "completedAt": "2026-11-21T12:00:09Z",
    }


def answer(httpx_mock: HTTPXMock, run: dict[str, Any], **kwargs: Any) -> None:
    body = {"automationId": AUTOMATION, "runs": [run]}
    httpx_mock.add_response(method="GET", url=RUNS_URL, json=body, **kwargs)


def watch(*args: str, clock: VirtualClock) -> Any:
    return run_cli(
        ["automations", "runs", AUTOMATION, "--run", "run_live", "--watch", *args],
        env={**token_env(), "TZ": "UTC"},
        clock=clock,
    )


def test_a_429_pauses_the_watch_for_exactly_its_retry_after(httpx_mock: HTTPXMock) -> None:
    answer(httpx_mock, running())
    httpx_mock.add_response(
        method="GET", url=RUNS_URL, status_code=429, headers={"Retry-After": "7"}
    )
    answer(httpx_mock, completed())
    clock = VirtualClock()

    # --max-retries 0: the client gives the 429 straight back; the watch waits it out.
    result = watch("--max-retries", "0", clock=clock)

    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [0.25, 7.0]  # the first backoff, then the service's word
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == [
        "Running",
        "Completed",
    ]


def test_polls_no_faster_than_the_profiles_rate_limit(httpx_mock: HTTPXMock) -> None:
    assert run_cli(["profile", "set", "rate_limit", "1/3s"]).exit_code == 0
    answer(httpx_mock, running())
    answer(httpx_mock, running())
    answer(httpx_mock, completed())
    clock = VirtualClock()

    result = watch(clock=clock)

    assert result.exit_code == 0, result.stderr
    assert clock.sleeps == [3.0, 3.0]
    assert len(result.stdout.splitlines()) == 2  # one line per change: the repeat is not one


def test_wait_timeout_is_exit_8_with_the_run_as_last_seen(httpx_mock: HTTPXMock) -> None:
    answer(httpx_mock, running(), is_reusable=True)
    clock = VirtualClock()

    result = watch("--wait-timeout", "2", clock=clock)

    assert result.exit_code == 8
    assert sum(clock.sleeps) == 2.0
    assert result.stderr.startswith("error: run run_live is still Running after 2s\n")


@dataclass
class InterruptedClock(VirtualClock):
    """Ctrl-C arrives during the second pause."""

    def sleep(self, seconds: float) -> None:
        super().sleep(seconds)
        if len(self.sleeps) == 2:
            raise KeyboardInterrupt


def test_ctrl_c_stops_watching_in_one_line_and_sends_nothing_more(
    httpx_mock: HTTPXMock,
) -> None:
    answer(httpx_mock, running(), is_reusable=True)

    result = watch(clock=InterruptedClock())

    assert result.exit_code == 130
    assert result.stderr == "error: stopped watching run run_live (it was Running)\n"
    assert [r.method for r in httpx_mock.get_requests()] == ["GET", "GET"]  # reads only


def test_watch_without_a_run_follows_the_newest(httpx_mock: HTTPXMock) -> None:
    older = completed() | {"id": "run_old", "status": "Failed", "failedAt": "2026-11-20T00:00:00Z"}
    httpx_mock.add_response(
        method="GET", url=RUNS_URL, json={"automationId": AUTOMATION, "runs": [completed(), older]}
    )

    result = run_cli(
        ["automations", "runs", AUTOMATION, "--watch", "-o", "value"],
        env={**token_env(), "TZ": "UTC"},
        clock=VirtualClock(),
    )

    assert result.exit_code == 0, result.stderr
    assert result.stdout == "2026-11-21 12:00 UTC  Completed  Send follow-up SMS: failed\n"


def test_wait_timeout_needs_watch() -> None:
    result = run_cli(["automations", "runs", AUTOMATION, "--wait-timeout", "5"], env=token_env())
    assert result.exit_code == 2
    assert "add --watch" in result.stderr

"""Issue 22 point 10, through the commands: a limit the user knows (`--rate N/WINDOW`, the
profile's `rate_limit`) paces `leads import`, `batch` and `--all` from the first request,
on a virtual clock (time moves only when leadctl waits)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, VirtualClock, run_cli, token_env

LEADS = f"{BASE_URL}/leads"
STATUS = f"{BASE_URL}/phone-numbers/%2B1512555010{{}}/status"


def ndjson(*objects: Any) -> str:
    return "".join(json.dumps(item) + "\n" for item in objects)


def sent_at(httpx_mock: HTTPXMock, clock: VirtualClock, url: str, answer: Any) -> list[float]:
    """Register a reusable answer that notes when (virtual time) each request left."""
    times: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        times.append(clock.monotonic() - 1000.0)
        return httpx.Response(200, json=answer)

    httpx_mock.add_callback(respond, url=url, is_reusable=True)
    return times


def test_import_with_rate_paces_evenly_from_the_first_row(httpx_mock: HTTPXMock) -> None:
    clock = VirtualClock()
    times = sent_at(httpx_mock, clock, LEADS, {"id": "lead_1"})
    rows = ndjson(*({"email": f"{n}@x.test"} for n in range(5)))

    result = run_cli(
        ["leads", "import", "-", "--rate", "2/1s"], env=token_env(), stdin=rows, clock=clock
    )

    assert result.exit_code == 0, result.stderr
    assert times == pytest.approx([0.0, 0.5, 1.0, 1.5, 2.0])


def test_the_profiles_rate_limit_paces_a_batch(httpx_mock: HTTPXMock) -> None:
    configured = run_cli(["profile", "set", "rate_limit", "300/60s"], env=token_env())
    assert configured.exit_code == 0, configured.stderr
    clock = VirtualClock()
    times: list[float] = []

    def respond(request: httpx.Request) -> httpx.Response:
        times.append(clock.monotonic() - 1000.0)
        return httpx.Response(200, json={})

    for n in range(3):
        httpx_mock.add_callback(respond, url=STATUS.format(n))

    result = run_cli(
        ["batch", "numbers status", "--concurrency", "1"],
        env=token_env(),
        stdin="+15125550100\n+15125550101\n+15125550102\n",
        clock=clock,
    )

    assert result.exit_code == 0, result.stderr
    assert times == pytest.approx([0.0, 0.2, 0.4])  # 300 per 60 s: one each 0.2 s


def test_rate_on_the_command_line_wins_over_the_profile(httpx_mock: HTTPXMock) -> None:
    assert run_cli(["profile", "set", "rate_limit", "1/10s"], env=token_env()).exit_code == 0
    clock = VirtualClock()
    times = sent_at(httpx_mock, clock, LEADS, {"id": "lead_1"})

    result = run_cli(
        ["leads", "import", "-", "--rate", "10/1s", "--concurrency", "1"],
        env=token_env(),
        stdin=ndjson({"email": "a@x.test"}, {"email": "b@x.test"}),
        clock=clock,
    )

    assert result.exit_code == 0, result.stderr
    assert times == pytest.approx([0.0, 0.1])


def test_all_pages_are_paced_by_the_profiles_rate_limit(httpx_mock: HTTPXMock) -> None:
    assert run_cli(["profile", "set", "rate_limit", "1/2s"], env=token_env()).exit_code == 0
    clock = VirtualClock()
    times: list[float] = []
    pages = {None: "t1", "t1": "t2", "t2": None}

    def page(request: httpx.Request) -> httpx.Response:
        times.append(clock.monotonic() - 1000.0)
        token = json.loads(request.content).get("continuationToken")
        return httpx.Response(200, json={"items": [{"id": f"lead_{token}"}],
                                         "continuationToken": pages[token]})  # fmt: skip

    httpx_mock.add_callback(page, url=f"{BASE_URL}/leads/all/my", is_reusable=True)

    result = run_cli(["leads", "list", "--all", "-o", "ndjson"], env=token_env(), clock=clock)

    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.splitlines()) == 3
    assert times == pytest.approx([0.0, 2.0, 4.0])


@pytest.mark.parametrize(
    ("rate", "message"),
    [
        ("fast", "expected N/WINDOW such as 300/60s"),
        ("0/60s", "N must be at least 1 request"),
        ("300", "expected N/WINDOW"),
        ("5/0s", "the window must be longer than 0 s"),
        ("1/100000h", "is not a rate a service publishes"),
    ],
)
def test_a_bad_rate_is_exit_2_before_anything_is_sent(
    httpx_mock: HTTPXMock, rate: str, message: str
) -> None:
    imported = run_cli(
        ["leads", "import", "-", "--rate", rate], env=token_env(), stdin=ndjson({"a": 1})
    )
    batched = run_cli(["batch", "numbers status", "--rate", rate], env=token_env(), stdin="+1\n")
    configured = run_cli(["profile", "set", "rate_limit", rate], env=token_env())

    assert (imported.exit_code, batched.exit_code, configured.exit_code) == (2, 2, 2)
    assert message in imported.stderr and message in configured.stderr
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("given", "stored"), [("300/60s", "300/60s"), ("5/s", "5/1s"), ("1000 / 1h", "1000/3600s")]
)
def test_profile_set_stores_the_rate_limit_in_one_form(given: str, stored: str) -> None:
    assert run_cli(["profile", "set", "rate_limit", given], env=token_env()).exit_code == 0

    shown = run_cli(["profile", "show", "-o", "json"], env=token_env())

    assert shown.exit_code == 0, shown.stderr
    assert stored in shown.stdout

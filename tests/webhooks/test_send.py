"""``leadctl webhooks send``: signed with the secret, retried with the same webhook-id and a
fresh timestamp and signature, exit codes as elsewhere. In-process with pytest-httpx and a
clock that moves when leadctl sleeps; end to end against a loopback receiver."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.clock import Clock
from tests.support.cli import run_cli
from tests.support.e2e import run_leadctl
from tests.webhooks.receivers import receiving
from tests.webhooks.scheme import is_signed, new_secret

URL = "https://hooks.example.test/in"


@dataclass
class MovingClock(Clock):
    """Wall time that moves by exactly what leadctl sleeps (and nothing else)."""

    start: datetime = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)
    sleeps: list[float] = field(default_factory=list)

    def now(self) -> datetime:
        return self.start + timedelta(seconds=sum(self.sleeps))

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)


def test_every_retry_has_the_same_id_and_a_fresh_timestamp_and_signature(
    httpx_mock: HTTPXMock,
) -> None:
    secret = new_secret()
    httpx_mock.add_response(url=URL, status_code=503, headers={"Retry-After": "7"})
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), url=URL)
    httpx_mock.add_response(url=URL, status_code=202)
    clock = MovingClock()
    result = run_cli(
        ["webhooks", "send", URL, "--id", "msg_fixed", "--data", '{"type":"x","data":{}}'],
        env={"LEADCTL_WEBHOOK_SECRET": secret},
        clock=clock,
    )
    assert result.exit_code == 0, result.stderr
    requests = httpx_mock.get_requests()
    assert len(requests) == 3
    assert {r.headers["webhook-id"] for r in requests} == {"msg_fixed"}
    stamps = [int(r.headers["webhook-timestamp"]) for r in requests]
    start = int(clock.start.timestamp())
    assert stamps[0] == start
    assert stamps[1] == start + 7  # Retry-After honoured, and the timestamp moved with it
    assert stamps[2] == int(start + 7 + clock.sleeps[1])
    assert len({r.headers["webhook-signature"] for r in requests}) == len(set(stamps))
    for request in requests:
        assert request.content == b'{"type":"x","data":{}}'
        assert is_signed(secret, dict(request.headers), request.content)
    assert json.loads(result.stdout) == {
        "webhookId": "msg_fixed",
        "status": 202,
        "attempts": 3,
        "url": URL,
    }
    assert result.stderr.count("retrying in") == 2


def test_max_retries_is_honoured(httpx_mock: HTTPXMock) -> None:
    for _ in range(3):
        httpx_mock.add_response(url=URL, status_code=500)
    result = run_cli(
        ["webhooks", "send", URL, "--max-retries", "2"],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
        clock=MovingClock(),
    )
    assert result.exit_code == 8
    assert len(httpx_mock.get_requests()) == 3
    assert "3 attempts" in result.stderr


@pytest.mark.parametrize(("status", "code"), [(400, 6), (401, 3), (403, 4), (404, 5), (410, 6)])
def test_a_4xx_is_not_retried_and_has_the_usual_exit_code(
    httpx_mock: HTTPXMock, status: int, code: int
) -> None:
    httpx_mock.add_response(url=URL, status_code=status)
    result = run_cli(
        ["webhooks", "send", URL], env={"LEADCTL_WEBHOOK_SECRET": new_secret()}, clock=MovingClock()
    )
    assert result.exit_code == code
    assert len(httpx_mock.get_requests()) == 1
    assert "did not accept the delivery" in result.stderr


def test_a_redirect_is_not_a_delivery(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, status_code=301, headers={"Location": "https://elsewhere/"})
    result = run_cli(
        ["webhooks", "send", URL], env={"LEADCTL_WEBHOOK_SECRET": new_secret()}, clock=MovingClock()
    )
    assert result.exit_code == 6
    assert "redirect" in result.stderr and "elsewhere" in result.stderr


def test_the_default_payload_is_a_test_event(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=URL, status_code=200)
    clock = MovingClock()
    result = run_cli(
        ["webhooks", "send", URL], env={"LEADCTL_WEBHOOK_SECRET": new_secret()}, clock=clock
    )
    assert result.exit_code == 0, result.stderr
    (request,) = httpx_mock.get_requests()
    payload = json.loads(request.content)
    assert payload["type"] == "leadctl.test"
    assert payload["timestamp"].startswith("2026-11-21T12:00:00")
    assert request.headers["webhook-id"].startswith("msg_")
    assert request.headers["content-type"] == "application/json"
    assert "authorization" not in request.headers


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--data", "{not json"], "invalid JSON"),
        (["--id", "has space"], "--id"),
        (["--id", ""], "--id"),
    ],
)
def test_bad_input_is_exit_2_before_sending(args: list[str], message: str) -> None:
    result = run_cli(["webhooks", "send", URL, *args], env={"LEADCTL_WEBHOOK_SECRET": new_secret()})
    assert result.exit_code == 2
    assert message in result.stderr


def test_plain_http_off_this_machine_needs_allow_insecure_http() -> None:
    result = run_cli(
        ["webhooks", "send", "http://hooks.example.test/in"],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
    )
    assert result.exit_code == 2
    assert "--allow-insecure-http" in result.stderr


# -- end to end: the installed leadctl, a receiver on 127.0.0.1 -----------------------


@pytest.mark.e2e
def test_e2e_a_delivery_the_receiver_can_verify(tmp_path: Path) -> None:
    secret = new_secret()
    payload = tmp_path / "event.json"
    payload.write_bytes(b'{"type": "lead.created",\n "data": {"id": "lead_1"}}\n')
    with receiving(201) as receiver:
        result = run_leadctl(
            ["webhooks", "send", receiver.url, "--data", f"@{payload}", "--id", "msg_e2e"],
            env={"LEADCTL_WEBHOOK_SECRET": secret},
        )
        (got,) = receiver.wait_for(1)
    assert result.exit_code == 0, result.stderr
    assert got.body == payload.read_bytes()  # byte for byte, newlines included
    assert got.header("webhook-id") == "msg_e2e"
    assert is_signed(secret, got.header_map(), got.body)
    assert json.loads(result.stdout)["status"] == 201


@pytest.mark.e2e
def test_e2e_retried_after_a_500_with_the_same_id() -> None:
    secret = new_secret()
    with receiving(500, 502, 200) as receiver:
        result = run_leadctl(
            ["webhooks", "send", receiver.url], env={"LEADCTL_WEBHOOK_SECRET": secret}
        )
        first, second, third = receiver.wait_for(3)
    assert result.exit_code == 0, result.stderr
    assert first.header("webhook-id") == second.header("webhook-id") == third.header("webhook-id")
    for got in (first, second, third):
        assert is_signed(secret, got.header_map(), got.body)
    assert json.loads(result.stdout)["attempts"] == 3


@pytest.mark.e2e
def test_e2e_5xx_after_the_retries_is_exit_8_and_a_dead_receiver_too() -> None:
    with receiving(default_status=503) as receiver:
        result = run_leadctl(
            ["webhooks", "send", receiver.url, "--max-retries", "1"],
            env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
        )
        assert len(receiver.wait_for(2)) == 2
    assert result.exit_code == 8
    dead = run_leadctl(
        ["webhooks", "send", "http://127.0.0.1:9/nothing", "--max-retries", "0"],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
    )
    assert dead.exit_code == 8
    assert "receiver is up" in dead.stderr


@pytest.mark.e2e
def test_e2e_the_secret_never_shows_even_echoed_back_under_debug(tmp_path: Path) -> None:
    secret = new_secret()
    key_file = tmp_path / "hook.key"
    key_file.write_text(secret)
    with receiving(400, answer_body=f"you sent {secret}".encode()) as receiver:
        result = run_leadctl(
            ["webhooks", "send", receiver.url, "--secret-file", str(key_file), "--debug"]
        )
    assert result.exit_code == 6
    assert "webhook-signature" in result.stderr  # the --debug trace is there
    assert secret not in result.stdout + result.stderr
    assert secret.removeprefix("whsec_") not in result.stdout + result.stderr


@pytest.mark.e2e
def test_e2e_dry_run_prints_a_signed_curl_and_sends_nothing() -> None:
    secret = new_secret()
    with receiving() as receiver:
        result = run_leadctl(
            ["webhooks", "send", receiver.url, "--dry-run", "--id", "msg_dry"],
            env={"LEADCTL_WEBHOOK_SECRET": secret},
        )
        assert receiver.received == []
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("curl ")
    assert "webhook-id: msg_dry" in result.stdout and "v1," in result.stdout
    assert secret not in result.stdout

"""``leadctl sandbox serve --webhook-url URL``: signed deliveries to a loopback receiver,
checked with the tests' own implementation of Standard Webhooks."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from leadctl_sandbox.webhooks import WebhookSender
from tests.support.e2e import run_leadctl
from tests.support.sandbox_server import SandboxProcess, sandbox_server
from tests.webhooks.receivers import Received, receiving
from tests.webhooks.scheme import is_signed, new_secret


def payload(received: Received) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(received.body)
    return body


def webhook_secret(sandbox: SandboxProcess) -> str:
    assert sandbox.webhooks is not None, "the ready line names the webhooks"
    return sandbox.webhooks["secret"]


def create_lead(sandbox: SandboxProcess, *extra: str) -> dict[str, Any]:
    result = run_leadctl(
        ["leads", "create", "--field", "firstName=Ada", "--field", "phone=+15125550143", *extra],
        env=sandbox.env(),
    )
    assert result.exit_code == 0, result.stderr
    lead: dict[str, Any] = json.loads(result.stdout)
    return lead


@pytest.mark.e2e
def test_a_created_lead_is_delivered_signed_and_its_automation_run_too() -> None:
    with (
        receiving() as receiver,
        sandbox_server(faults=False, extra_args=["--webhook-url", receiver.url]) as sandbox,
    ):
        secret = webhook_secret(sandbox)
        assert secret.startswith("whsec_")
        assert sandbox.webhooks == {"url": receiver.url, "secret": secret}
        lead = create_lead(sandbox, "--wait")
        created, running, waiting = receiver.wait_for(3)
        automation_id = payload(waiting)["data"]["automation"]["id"]
        runs = run_leadctl(["automations", "runs", automation_id], env=sandbox.env())
    for delivery in (created, running, waiting):
        assert is_signed(secret, delivery.header_map(), delivery.body)
        assert delivery.header("content-type") == "application/json"
        assert abs(int(delivery.header("webhook-timestamp") or 0) - time.time()) < 300
    assert len({d.header("webhook-id") for d in (created, running, waiting)}) == 3
    event = payload(created)
    assert event["type"] == "lead.created"
    assert event["data"]["id"] == lead["id"]
    assert event["data"]["processingStatus"] == "Pending"
    assert set(event) == {"type", "timestamp", "data"}
    started, parked = payload(running), payload(waiting)
    assert started["type"] == parked["type"] == "automation_run.status_changed"
    assert (started["data"]["status"], parked["data"]["status"]) == ("Running", "Waiting")
    assert started["data"]["id"] == parked["data"]["id"]
    assert parked["data"]["leadId"] == lead["id"]
    listed = json.loads(runs.stdout)["runs"]
    assert [run for run in listed if run["id"] == parked["data"]["id"]] == [parked["data"]]


@pytest.mark.e2e
def test_a_refused_delivery_is_retried_with_the_same_id_and_a_valid_signature() -> None:
    with (
        receiving(500) as receiver,
        sandbox_server(faults=False, extra_args=["--webhook-url", receiver.url]) as sandbox,
    ):
        secret = webhook_secret(sandbox)
        create_lead(sandbox)
        first, retry = receiver.wait_for(2)
        log = sandbox.stderr_text()
    assert first.header("webhook-id") == retry.header("webhook-id")
    assert first.body == retry.body
    assert is_signed(secret, first.header_map(), first.body)
    assert is_signed(secret, retry.header_map(), retry.body)
    assert "answered 500; retrying" in log


@pytest.mark.e2e
def test_a_slow_receiver_never_holds_up_the_request() -> None:
    with receiving() as receiver:
        receiver.hold = threading.Event()
        receiver.hold.set()
        with sandbox_server(faults=False, extra_args=["--webhook-url", receiver.url]) as sandbox:
            create_lead(sandbox)  # answered while the delivery is still held
            receiver.wait_for(1)
            assert not receiver.release.is_set()
            receiver.release.set()


@pytest.mark.e2e
def test_the_secret_stays_with_the_state_across_restarts(tmp_path: Path) -> None:
    args = ["--webhook-url", "http://127.0.0.1:9/"]
    with sandbox_server(faults=False, data_dir=tmp_path / "state", extra_args=args) as first:
        secret = webhook_secret(first)
    with sandbox_server(faults=False, data_dir=tmp_path / "state", extra_args=args) as second:
        assert webhook_secret(second) == secret
    with sandbox_server(faults=False, extra_args=args) as other:
        assert webhook_secret(other) != secret


@pytest.mark.e2e
def test_the_ready_text_gives_the_secret_to_paste() -> None:
    import subprocess

    from tests.support.e2e import leadctl_executable

    command = [
        leadctl_executable(), "sandbox", "serve", "--memory", "--port", "0",
        "--webhook-url", "http://127.0.0.1:9000/",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL
    )
    try:
        assert process.stdout is not None
        lines = []
        for raw in process.stdout:
            lines.append(raw.decode())
            if raw.startswith(b"Press Ctrl-C"):
                break
    finally:
        process.terminate()
        process.wait(30)
    text = "".join(lines)
    assert "export LEADCTL_WEBHOOK_SECRET=whsec_" in text
    assert "leadctl webhooks listen --port 9000" in text


def test_the_sender_signs_each_attempt_afresh() -> None:
    """In-process, with a clock that moves a minute per attempt: a retry is not a replay."""
    stamps = iter([1_800_000_000, 1_800_000_060, 1_800_000_120])
    secret = new_secret()
    with receiving(503, 500, 204) as receiver:
        sender = WebhookSender(receiver.url, secret, delays=(0.0, 0.0), clock=lambda: next(stamps))
        sender.start()
        try:
            from datetime import datetime, timezone

            from leadctl_sandbox.webhooks import LEAD_CREATED, Event

            moment = datetime(2027, 1, 15, 8, 0, tzinfo=timezone.utc)
            sender.publish([Event(LEAD_CREATED, moment, {"id": "lead_1"})])
            attempts = receiver.wait_for(3)
        finally:
            assert sender.stop() == 0
    assert [a.header("webhook-timestamp") for a in attempts] == [
        "1800000000",
        "1800000060",
        "1800000120",
    ]
    assert len({a.header("webhook-id") for a in attempts}) == 1
    assert len({a.header("webhook-signature") for a in attempts}) == 3
    for attempt in attempts:
        assert is_signed(secret, attempt.header_map(), attempt.body)
    assert payload(attempts[0]) == {
        "type": "lead.created",
        "timestamp": "2027-01-15T08:00:00.000Z",
        "data": {"id": "lead_1"},
    }

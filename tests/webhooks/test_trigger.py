"""``leadctl webhooks trigger EVENT``, installed, against ``sandbox serve --webhook-url URL``:
the sandbox delivers a signed example to a loopback receiver, checked with the tests' own
implementation of Standard Webhooks (as stripe trigger has the service send one)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.support.e2e import run_leadctl
from tests.support.sandbox_server import SandboxProcess, sandbox_server
from tests.webhooks.receivers import receiving
from tests.webhooks.scheme import is_signed

pytestmark = pytest.mark.e2e


def trigger(sandbox: SandboxProcess, *args: str) -> Any:
    result = run_leadctl(["webhooks", "trigger", *args], env=sandbox.env())
    assert result.exit_code == 0, result.stderr
    assert "signed" in result.stderr
    return json.loads(result.stdout)


def test_trigger_delivers_a_signed_example_with_the_fields_changed() -> None:
    with (
        receiving() as receiver,
        sandbox_server(faults=False, extra_args=["--webhook-url", receiver.url]) as sandbox,
    ):
        assert sandbox.webhooks is not None
        secret = sandbox.webhooks["secret"]
        run_answer = trigger(sandbox, "automation_run.status_changed", "--field", "status=Failed")
        lead_answer = trigger(sandbox, "lead.created", "--field", "state=ZZ")
        run_delivery, lead_delivery = receiver.wait_for(2)
    for answer, delivery in ((run_answer, run_delivery), (lead_answer, lead_delivery)):
        assert is_signed(secret, delivery.header_map(), delivery.body)
        assert delivery.header("webhook-id") == answer["webhookId"]
        assert answer["url"] == receiver.url
    run_event, lead_event = json.loads(run_delivery.body), json.loads(lead_delivery.body)
    assert run_event["type"] == run_answer["type"] == "automation_run.status_changed"
    assert run_event["data"]["status"] == "Failed"
    assert run_event["data"]["automation"]["id"]  # the rest is a real run's
    assert lead_event["type"] == "lead.created"
    assert lead_event["data"]["state"] == "ZZ" and lead_event["data"]["id"]


def test_a_sandbox_without_a_webhook_url_says_how_to_start_one() -> None:
    with sandbox_server(faults=False) as sandbox:
        result = run_leadctl(["webhooks", "trigger", "lead.created"], env=sandbox.env())
    assert result.exit_code == 6  # refused by the service (409)
    assert "--webhook-url" in result.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["-p", "sandbox", "webhooks", "trigger", "lead.created"], "embedded sandbox"),
        (["-p", "sandbox", "webhooks", "trigger", "lead.deleted"], "no example of event"),
    ],
    ids=str,
)
def test_what_cannot_be_triggered_is_exit_2_before_sending(args: list[str], said: str) -> None:
    result = run_leadctl(args)
    assert result.exit_code == 2
    assert said in result.stderr

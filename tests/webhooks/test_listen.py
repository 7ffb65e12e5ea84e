"""``leadctl webhooks listen``, installed, between a sender (these tests, signing with their
own implementation of the scheme) and a forward target on 127.0.0.1."""

from __future__ import annotations

import json
import signal
import threading
import time

import httpx
import pytest

from tests.support.e2e import run_leadctl
from tests.webhooks.listener import listening
from tests.webhooks.receivers import receiving
from tests.webhooks.scheme import new_secret, signed_headers

pytestmark = pytest.mark.e2e

BODY = b'{"type":"lead.created","timestamp":"2026-11-21T12:00:00Z","data":{"id":"lead_1"}}'


def deliver(url: str, secret: str, msg_id: str, body: bytes = BODY, **extra: str) -> httpx.Response:
    headers = {**signed_headers(secret, msg_id, int(time.time()), body), **extra}
    return httpx.post(url, content=body, headers=headers, timeout=30)


def test_verified_deliveries_are_forwarded_unchanged_and_answered_with_the_targets_status() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with receiving(201, answer_body=b"created it") as target:
        with listening(["--forward-to", target.url], env=env) as listener:
            response = deliver(
                listener.url, secret, "msg_fwd", **{"X-Custom": "kept", "User-Agent": "sender/1"}
            )
            (line,) = listener.wait_for_lines(1)
        (forwarded,) = target.wait_for(1)
    assert response.status_code == 201
    assert response.content == b"created it"
    assert forwarded.body == BODY
    assert forwarded.path == "/hook"
    connection_level = {"host", "content-length", "connection"}
    sent = {(k.lower(), v) for k, v in response.request.headers.items()} - {
        (k, v) for k, v in response.request.headers.items() if k.lower() in connection_level
    }
    got = {(k.lower(), v) for k, v in forwarded.headers if k.lower() not in connection_level}
    assert got == {(k, v) for k, v in sent if k not in connection_level}
    record = json.loads(line)
    assert record["webhookId"] == "msg_fwd"
    assert record["type"] == "lead.created"
    assert record["verified"] is True
    assert record["forwarded"] is True
    assert record["forwardStatus"] == 201
    assert record["status"] == 201


def test_a_failed_forward_is_answered_so_and_the_retry_is_forwarded() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with receiving(500, 200) as target:
        with listening(["--forward-to", target.url], env=env) as listener:
            assert deliver(listener.url, secret, "msg_retry").status_code == 500
            assert deliver(listener.url, secret, "msg_retry").status_code == 200
            # Accepted now: a third copy is a duplicate.
            assert deliver(listener.url, secret, "msg_retry").status_code == 204
            lines = [json.loads(line) for line in listener.wait_for_lines(3)]
        assert len(target.wait_for(2)) == 2
    assert [r["forwardStatus"] for r in lines] == [500, 200, None]
    assert [r["duplicate"] for r in lines] == [False, False, True]


def test_a_repeated_webhook_id_is_answered_2xx_and_not_forwarded_again() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with receiving() as target:
        with listening(["--forward-to", target.url], env=env) as listener:
            first = deliver(listener.url, secret, "msg_once")
            # The sender's retry: same id, fresh timestamp and signature.
            again = deliver(listener.url, secret, "msg_once", body=BODY)
            other = deliver(listener.url, secret, "msg_twice")
            listener.wait_for_lines(3)
        received = target.wait_for(2)
    assert (first.status_code, again.status_code, other.status_code) == (200, 204, 200)
    assert [r.header("webhook-id") for r in received] == ["msg_once", "msg_twice"]


def test_bad_or_stale_deliveries_are_refused_and_never_forwarded() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with receiving() as target:
        with listening(["--forward-to", target.url], env=env) as listener:
            forged = deliver(listener.url, new_secret(), "msg_forged")
            stale_headers = signed_headers(secret, "msg_stale", int(time.time()) - 900, BODY)
            stale = httpx.post(listener.url, content=BODY, headers=stale_headers, timeout=30)
            bare = httpx.post(listener.url, content=BODY, headers={"webhook-id": "x"}, timeout=30)
            tampered_headers = signed_headers(secret, "msg_tampered", int(time.time()), BODY)
            tampered = httpx.post(
                listener.url, content=BODY + b" ", headers=tampered_headers, timeout=30
            )
            lines = [json.loads(line) for line in listener.wait_for_lines(4)]
        assert target.received == []
    assert forged.status_code == 401
    assert forged.json()["title"] == "bad signature"
    assert tampered.status_code == 401
    assert stale.status_code == 400
    assert stale.json()["title"] == "timestamp outside tolerance"
    assert bare.status_code == 400
    assert bare.json()["title"] == "missing header"
    assert [r["verified"] for r in lines] == [False] * 4
    assert {r["reason"] for r in lines} == {
        "bad signature",
        "timestamp outside tolerance",
        "missing header",
    }
    assert not any(r["forwarded"] for r in lines)


def test_without_forward_to_verified_deliveries_get_204() -> None:
    secret = new_secret()
    with listening(env={"LEADCTL_WEBHOOK_SECRET": secret}) as listener:
        assert deliver(listener.url, secret, "msg_alone").status_code == 204
        (line,) = listener.wait_for_lines(1)
    assert json.loads(line)["forwarded"] is False


def test_an_unreachable_target_is_a_502_that_says_so() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with listening(["--forward-to", "http://127.0.0.1:9/hook"], env=env) as listener:
        response = deliver(listener.url, secret, "msg_nowhere")
        (line,) = listener.wait_for_lines(1)
    assert response.status_code == 502
    assert "unreachable" in response.json()["detail"]
    assert "unreachable" in json.loads(line)["reason"]


def test_a_copy_arriving_while_the_first_is_forwarded_is_not_forwarded_too() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    with receiving() as target:
        target.hold = threading.Event()
        target.hold.set()
        with listening(["--forward-to", target.url], env=env) as listener:
            answers: list[int] = []
            first = threading.Thread(
                target=lambda: answers.append(deliver(listener.url, secret, "msg_race").status_code)
            )
            first.start()
            target.wait_for(1)  # the first copy is at the target, held there
            second = deliver(listener.url, secret, "msg_race")
            target.release.set()
            first.join(30)
            listener.wait_for_lines(2)
        assert len(target.received) == 1
    assert second.status_code == 409
    assert answers == [200]


def test_only_loopback_unless_allow_remote() -> None:
    result = run_leadctl(
        ["webhooks", "listen", "--host", "0.0.0.0", "--port", "0"],
        env={"LEADCTL_WEBHOOK_SECRET": new_secret()},
    )
    assert result.exit_code == 2
    assert "--allow-remote" in result.stderr


def test_a_malformed_secret_stops_it_before_listening() -> None:
    result = run_leadctl(
        ["webhooks", "listen", "--port", "0"], env={"LEADCTL_WEBHOOK_SECRET": "whsec_%%%"}
    )
    assert result.exit_code == 2
    assert "listening" not in result.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_it_stops_cleanly_with_exit_0(sig: int) -> None:
    with listening(env={"LEADCTL_WEBHOOK_SECRET": new_secret()}) as listener:
        code = listener.stop(sig)
        listener.wait_for_stderr("stopped listening")
    assert code == 0
    assert not any("Traceback" in line for line in listener.stderr_lines)


def test_a_terminal_gets_table_lines_with_sender_text_made_safe() -> None:
    secret = new_secret()
    hostile = b'{"type":"lead.created\\u001b[2J\\u202e","data":{}}'
    with listening(env={"LEADCTL_WEBHOOK_SECRET": secret}, terminal=True) as listener:
        deliver(listener.url, secret, "msg_tty", body=hostile)
        deliver(listener.url, new_secret(), "msg_forged_tty")
        header, first, second = listener.wait_for_lines(3)
    assert header.split()[:3] == ["TIME", "WEBHOOK-ID", "TYPE"]
    assert "msg_tty" in first and "yes" in first and "answered 204" in first
    assert "\x1b" not in first and "\u202e" not in first
    assert "lead.created\\x1b[2J\\u202e" in first
    assert "msg_forged_tty" in second and "no: bad signature" in second
    assert "not forwarded, answered 401" in second


def test_events_forwards_only_the_types_named() -> None:
    secret = new_secret()
    env = {"LEADCTL_WEBHOOK_SECRET": secret}
    other = b'{"type":"automation_run.status_changed","data":{"id":"run_1"}}'
    events = ["--events", "lead.created,lead.updated"]
    with receiving(200) as target:
        with listening(["--forward-to", target.url, *events], env=env) as listener:
            skipped = deliver(listener.url, secret, "msg_other", body=other)
            chosen = deliver(listener.url, secret, "msg_chosen")
            lines = [json.loads(line) for line in listener.wait_for_lines(2)]
        (forwarded,) = target.wait_for(1)
    assert skipped.status_code == 204 and chosen.status_code == 200
    assert forwarded.body == BODY
    by_id = {line["webhookId"]: line for line in lines}
    assert by_id["msg_other"]["forwarded"] is False
    assert by_id["msg_other"]["reason"] == "not in --events"
    assert by_id["msg_chosen"]["forwarded"] is True

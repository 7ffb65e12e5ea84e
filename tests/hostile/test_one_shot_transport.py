"""The one-shot stdlib transport (leadctl/http/one_shot.py) against a real loopback socket.

The installed leadctl sends a single non-paged request through ``http.client``; with
LEADCTL_HTTP_TRANSPORT=httpx it sends it through httpx. Each test runs the same command both
ways against the same bytes and finds the same exit code, message and --debug lines: the
retry, credential, trace and secret rules live above the transport.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
import threading

import pytest

from tests.support.e2e import run_leadctl
from tests.support.hostile_fixtures import ORG_KEY
from tests.support.hostile_server import HostileServer, json_response, response

pytestmark = pytest.mark.e2e

TRANSPORTS = {"stdlib": {}, "httpx": {"LEADCTL_HTTP_TRANSPORT": "httpx"}}
STATUSES = [{"id": "st_1", "name": "Open"}]


def _run(args: list[str], hostile_env: dict[str, str], transport: str) -> tuple[int, str, str]:
    done = run_leadctl(args, env={**hostile_env, **TRANSPORTS[transport]})
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_429_with_retry_after_is_sent_again_once_and_answered(
    hostile: HostileServer, hostile_env: dict[str, str], transport: str
) -> None:
    hostile.answer(response(429, reason="Too Many Requests", headers=[("Retry-After", "0")]))
    hostile.answer(json_response(STATUSES), path="/lead-statuses")
    code, out, err = _run(["lead-statuses", "list", "-o", "json"], hostile_env, transport)
    assert code == 0, err
    assert json.loads(out) == STATUSES
    assert len(hostile.requests) == 2
    # Retry-After: 0 is waited exactly (without it the backoff would print 0.1s or more).
    assert err.splitlines() == ["retrying in 0s: 429 rate limited"]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_5xx_on_lead_creation_is_exit_9_and_not_sent_again(
    hostile: HostileServer, hostile_env: dict[str, str], transport: str
) -> None:
    hostile.answer(response(500, reason="Internal Server Error"), path="/leads", method="POST")
    code, _out, err = _run(
        ["leads", "create", "--field", "email=a@example.test"], hostile_env, transport
    )
    assert code == 9, err
    assert [r.method + " " + r.path for r in hostile.requests] == ["POST /leads"]
    assert hostile.requests[0].json()["email"] == "a@example.test"


def _closed_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as server:
        return int(server.getsockname()[1])


def test_connection_refused_ends_the_same_on_both_transports(hostile_env: dict[str, str]) -> None:
    refused = {**hostile_env, "LEADCTL_BASE_URL": f"http://127.0.0.1:{_closed_port()}"}
    # No retry: the backoff's jitter would make the two retry lines differ.
    args = ["--max-retries", "0", "lead-statuses", "list", "-o", "json"]
    stdlib, httpx = _run(args, refused, "stdlib"), _run(args, refused, "httpx")
    assert stdlib == httpx
    code, _out, err = stdlib
    assert code == 8
    assert "Connection refused (after 1 attempts)" in err


def test_a_timeout_ends_the_same_on_both_transports(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    never = threading.Event()
    hostile.answer(json_response(STATUSES), path="/lead-statuses", times=2, release=never)
    args = ["--timeout", "0.3", "--max-retries", "0", "lead-statuses", "list", "-o", "json"]
    try:
        stdlib, httpx = _run(args, hostile_env, "stdlib"), _run(args, hostile_env, "httpx")
    finally:
        never.set()
    assert stdlib == httpx
    code, _out, err = stdlib
    assert code == 8
    assert "timed out waiting for the service" in err


def _shape(trace: str) -> list[str]:
    """The --debug lines with what changes between two runs (timings) taken out."""
    return [re.sub(r"\(\d+ ms\)", "(N ms)", line) for line in trace.splitlines()]


@pytest.mark.parametrize(
    "args",
    [
        ["lead-statuses", "list", "-o", "json"],
        ["leads", "create", "--field", "email=a@example.test"],
    ],
)
def test_debug_lines_are_the_same_on_both_transports_and_hold_no_credential(
    hostile: HostileServer, hostile_env: dict[str, str], args: list[str]
) -> None:
    answer = json_response(
        {"id": "ld_1"} if "create" in args else STATUSES,
        status=201 if "create" in args else 200,
        headers=[("ETag", '"v1"'), ("X-Many", "a"), ("X-Many", "b")],
    )
    hostile.answer(answer, times=2)
    traces = []
    for transport in TRANSPORTS:
        code, _out, err = _run(["--debug", *args], hostile_env, transport)
        assert code == 0, err
        traces.append(_shape(err))
    assert traces[0] == traces[1]
    assert ORG_KEY not in "\n".join(traces[0])
    assert "> authorization: ***" in traces[0]
    assert "< x-many: a, b" in traces[0]
    # The credential went on the wire, once, in the request itself.
    assert [r.header("Authorization") for r in hostile.requests] == [f"Bearer {ORG_KEY}"] * 2
    # And the same headers, in the same order, went on the wire.
    sent = [[name.lower() for name, _value in r.headers] for r in hostile.requests]
    assert sent[0] == sent[1]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_gzip_answer_is_decoded_and_a_bad_one_is_exit_8(
    hostile: HostileServer, hostile_env: dict[str, str], transport: str
) -> None:
    body = gzip.compress(json.dumps(STATUSES).encode())
    headers = [("Content-Type", "application/json"), ("Content-Encoding", "gzip")]
    hostile.answer(response(200, headers=headers, body=body), path="/lead-statuses")
    code, out, err = _run(["lead-statuses", "list", "-o", "json"], hostile_env, transport)
    assert (code, json.loads(out)) == (0, STATUSES), err

    hostile.answer(response(200, headers=headers, body=b"not gzip"), path="/lead-statuses")
    code, _out, err = _run(["lead-statuses", "list", "-o", "json"], hostile_env, transport)
    assert code == 8
    assert "could not be decoded (bad Content-Encoding)" in err


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_an_answer_declared_too_large_is_refused_unread(
    hostile: HostileServer, hostile_env: dict[str, str], transport: str
) -> None:
    huge = response(
        200, headers=[("Content-Length", str(65 * 1024 * 1024))], body=b"[]", content_length=False
    )
    hostile.answer(huge, path="/lead-statuses")
    code, _out, err = _run(["lead-statuses", "list", "-o", "json"], hostile_env, transport)
    assert code == 8
    assert "the response body is too large (68157440 bytes)" in err

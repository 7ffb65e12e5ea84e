"""The client's typed outcome of one send, and paging that waits out 429s without an error."""

from __future__ import annotations

import json

import httpx
import pytest
from pytest_httpx import HTTPXMock

from leadctl.config.credentials import Credential, CredentialKind
from leadctl.contract.operations import Operation, bundled_operation
from leadctl.http.client import Client, Exchange
from leadctl.http.resend import Tries, Verdict, decide
from leadctl.http.retry import Backoff, Delivery, RetryPolicy, retry_after_seconds
from tests.support.cli import BASE_URL, ORG_KEY, VirtualClock, run_cli, token_env

URL = f"{BASE_URL}/leads/all/my"


def client() -> Client:
    credential = Credential(ORG_KEY, CredentialKind.ORG, "test")
    return Client(base_url=BASE_URL, credential=lambda: credential, sleep=lambda _s: None)


def page(ids: list[int], token: str | None) -> dict[str, object]:
    return {"items": [{"id": n} for n in ids], "continuationToken": token}


def test_paging_waits_out_more_429s_than_the_retry_budget_with_no_gap(
    httpx_mock: HTTPXMock,
) -> None:
    httpx_mock.add_response(url=URL, json=page([1, 2], "t1"))
    # Seven refusals, no Retry-After: more than --max-retries 2 would allow any other read.
    for _ in range(7):
        httpx_mock.add_response(url=URL, status_code=429)
    httpx_mock.add_response(url=URL, json=page([3, 4], "t2"))
    httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": "30"})
    httpx_mock.add_response(url=URL, json=page([5], None))
    clock = VirtualClock()
    result = run_cli(
        ["--max-retries", "2", "leads", "list", "--all", "-o", "ndjson"],
        env=token_env(),
        clock=clock,
    )
    assert result.exit_code == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [1, 2, 3, 4, 5]
    tokens = [json.loads(r.content).get("continuationToken") for r in httpx_mock.get_requests()]
    assert tokens == [None, *["t1"] * 8, "t2", "t2"]  # each refused page asked for again
    assert result.stderr.count("retrying in") == 8
    assert "error" not in result.stderr
    assert sum(clock.sleeps) >= 30  # the Retry-After was waited out


def test_a_single_read_still_gives_up_after_the_retry_budget(httpx_mock: HTTPXMock) -> None:
    for _ in range(3):
        httpx_mock.add_response(status_code=429, headers={"Retry-After": "1"})
    result = run_cli(["--max-retries", "2", "lead-statuses", "list"], env=token_env())
    assert result.exit_code == 7


def test_paging_gives_up_after_an_hour_of_429s_with_exit_7(httpx_mock: HTTPXMock) -> None:
    # Refused at 0, 30 and 60 minutes: the third is an hour after the first, the patience.
    for _ in range(3):
        httpx_mock.add_response(url=URL, status_code=429, headers={"Retry-After": "1800"})
    clock = VirtualClock()
    result = run_cli(["leads", "list", "--all", "-o", "ndjson"], env=token_env(), clock=clock)
    assert result.exit_code == 7, result.stderr
    assert len(httpx_mock.get_requests()) == 3
    assert sum(clock.sleeps) == pytest.approx(3600)


def verdict(sent: Exchange, *, retry_safe: bool) -> Verdict:
    """What the one resend decision makes of ``sent`` as a first, unpaced send."""
    return decide(sent, Tries(), retry_safe=retry_safe, paced=False, policy=RetryPolicy()).verdict


def test_exchange_reports_an_answer(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(status_code=503, headers={"Retry-After": "7"})
    http = client()
    request, secrets = http.build(
        bundled_operation("POST", "/leads"), json_body={"email": "a@x.test"}
    )
    sent = http.exchange(request, secrets=secrets)
    assert sent.delivery is Delivery.ANSWERED
    assert sent.status == 503
    assert sent.retry_after == 7.0
    assert verdict(sent, retry_safe=False) is Verdict.UNKNOWN
    assert verdict(sent, retry_safe=True) is Verdict.RESEND


def test_exchange_reports_a_request_sent_without_an_answer(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("slow"))
    http = client()
    request, secrets = http.build(
        bundled_operation("POST", "/leads"), json_body={"email": "a@x.test"}
    )
    sent = http.exchange(request, secrets=secrets)
    assert sent.delivery is Delivery.NO_ANSWER
    assert sent.status is None
    assert verdict(sent, retry_safe=False) is Verdict.UNKNOWN


def test_exchange_reports_a_request_never_sent(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"))
    http = client()
    request, secrets = http.build(
        bundled_operation("POST", "/leads"), json_body={"email": "a@x.test"}
    )
    sent = http.exchange(request, secrets=secrets)
    assert sent.delivery is Delivery.NOT_SENT
    assert verdict(sent, retry_safe=False) is Verdict.RESEND


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("120", 120.0),
        ("1.5", 1.5),
        ("Wed, 21 Oct 2015 07:28:30 GMT", 30.0),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0.0),  # in the past
        ("soon", None),
        ("-3", None),
    ],
)
def test_retry_after_is_read_as_seconds_or_an_http_date(header: str, seconds: float | None) -> None:
    now = 1445412480.0  # Wed, 21 Oct 2015 07:28:00 GMT
    assert retry_after_seconds({"Retry-After": header}, lambda: now) == seconds


def test_backoff_is_full_jitter_exponential_capped_at_20_seconds() -> None:
    asked: list[tuple[float, float]] = []

    def jitter(low: float, high: float) -> float:
        asked.append((low, high))
        return high / 2

    policy = RetryPolicy(max_retries=3, backoff=Backoff(jitter=jitter))
    assert [policy.wait(n, None) for n in (1, 2, 3, 8)] == [0.25, 0.5, 1.0, 10.0]
    assert asked == [(0.0, 0.5), (0.0, 1.0), (0.0, 2.0), (0.0, 20.0)]
    assert policy.wait(5, 3.0) == 3.0  # Retry-After exactly, no jitter
    assert policy.allows(3) and not policy.allows(4)


def test_a_plain_http_base_url_loads_no_certificate_store(
    httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ssl

    loaded: list[object] = []
    real = ssl.create_default_context

    def counting(*args: object, **kwargs: object) -> ssl.SSLContext:
        loaded.append(args or kwargs)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ssl, "create_default_context", counting)
    credential = Credential(ORG_KEY, CredentialKind.ORG, "test")
    http = Client(base_url="http://127.0.0.1:8765", credential=lambda: credential)
    httpx_mock.add_response(url="http://127.0.0.1:8765/lead-statuses", json=[])
    httpx_mock.add_response(url="https://docs.example.test/openapi.json", json={})
    assert http.call_json(bundled_operation("GET", "/lead-statuses")) == []
    assert loaded == []
    # An https URL still gets a verifying transport, built when it is first asked for.
    absolute = Operation("pull", "GET", "https://docs.example.test/openapi.json", retry_safe=True)
    assert http.call_json(absolute) == {}
    assert len(loaded) == 1


def test_ssl_cert_file_is_read_only_when_an_https_url_is_used(httpx_mock: HTTPXMock) -> None:
    # A plain-http base URL never needs the bundle: even one that cannot be read is not
    # touched (reading the usual one was most of a loopback read's start-up).
    httpx_mock.add_response(url="http://127.0.0.1:8765/lead-statuses", json=[])
    env = {**token_env(base_url="http://127.0.0.1:8765"), "SSL_CERT_FILE": "/nonexistent.pem"}
    assert run_cli(["lead-statuses", "list", "-o", "json"], env=env).exit_code == 0
    # With an https base URL the same bundle is an error before anything is sent.
    https = {**token_env(base_url="https://api.example.test"), "SSL_CERT_FILE": "/nonexistent"}
    refused = run_cli(["lead-statuses", "list", "-o", "json"], env=https)
    assert refused.exit_code == 2
    assert "SSL_CERT_FILE=/nonexistent" in refused.stderr

"""``-p sandbox`` sends a single request to the embedded sandbox the way it sends one to a
service: through the one-shot transport (leadctl/http/one_shot.py), handed to the app in
the process (``InProcessTransport.answer_in_process``) with no httpx. The answer, exit code
and ``--debug`` trace are httpx's to the byte, and the start loads none of what it needs not.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from leadctl.contract.operations import bundled_operation
from leadctl.errors import BadResponse
from leadctl.http.bodies import MAX_BODY_BYTES, TooLarge
from leadctl.http.one_shot import OneShot, OneShotError, one_shot_allowed
from leadctl_sandbox.in_process import InProcessTransport
from tests.support.e2e import run_leadctl
from tests.support.importtime import imported

READ = ["-p", "sandbox", "lead-statuses", "list", "-o", "json"]


def home(tmp_path: Path) -> dict[str, str]:
    """A user's home whose LEADCTL_*_DIR are empty, as unset: leadctl finds its dirs as
    platformdirs does."""
    return {
        "LEADCTL_CONFIG_DIR": "",
        "LEADCTL_DATA_DIR": "",
        "LEADCTL_CACHE_DIR": "",
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }


@pytest.fixture
def warm_home(tmp_path: Path) -> dict[str, str]:
    """A home whose sandbox is seeded and whose sandbox contract is compiled (first use)."""
    env = home(tmp_path)
    first = run_leadctl(READ, env=env)
    assert first.exit_code == 0, first.stderr
    return env


@pytest.mark.e2e
def test_a_sandbox_read_loads_no_httpx_and_finds_its_dirs_without_platformdirs(
    warm_home: dict[str, str], tmp_path: Path
) -> None:
    names = imported(READ, warm_home)
    assert "leadctl_sandbox.in_process" in names  # the app answered in this process
    unwanted = ("httpx", "httpcore", "platformdirs", "importlib.resources")
    assert sorted(n for n in names if n.split(".")[0] in unwanted or n in unwanted) == []
    # A curated verb the sandbox's contract adds no parameter to builds no generated flags.
    assert "leadctl.generated.command" not in names
    # The state is where platformdirs puts leadctl's data: XDG_DATA_HOME/leadctl.
    assert (tmp_path / "data" / "leadctl" / "sandbox").is_dir()


@pytest.mark.e2e
def test_the_in_process_answer_and_trace_are_httpxs(warm_home: dict[str, str]) -> None:
    one_shot = run_leadctl(["--debug", *READ], env=warm_home)
    httpx_home = {**warm_home, "LEADCTL_HTTP_TRANSPORT": "httpx"}
    through_httpx = run_leadctl(["--debug", *READ], env=httpx_home)
    assert one_shot.exit_code == through_httpx.exit_code == 0, one_shot.stderr
    assert one_shot.stdout == through_httpx.stdout
    assert '"name":"New"' in one_shot.stdout.replace(" ", "")

    def trace(stderr: str) -> list[str]:
        # Only what differs between any two runs: the time taken and the trace id.
        lines = [line for line in stderr.splitlines() if line.startswith(("> ", "< "))]
        return [
            re.sub(r"x-trace-id: \S+", "x-trace-id: *", re.sub(r"\(\d+ ms\)", "(ms)", line))
            for line in lines
        ]

    assert trace(one_shot.stderr) == trace(through_httpx.stderr)
    sent = trace(one_shot.stderr)
    assert any(line.startswith("> GET http://sandbox.localhost/") for line in sent)


@pytest.mark.e2e
def test_a_sandbox_problem_is_the_same_exit_code_on_both(warm_home: dict[str, str]) -> None:
    missing = ["-p", "sandbox", "leads", "get", "00000000-0000-4000-8000-000000000000"]
    one_shot = run_leadctl(missing, env=warm_home)
    through_httpx = run_leadctl(missing, env={**warm_home, "LEADCTL_HTTP_TRANSPORT": "httpx"})
    assert one_shot.exit_code == through_httpx.exit_code
    assert one_shot.exit_code not in (0, 1), one_shot.stderr
    assert "404" in one_shot.stderr

    def trace_id_out(stderr: str) -> str:
        return re.sub(r"trace id: \S+", "trace id: *", stderr)

    assert trace_id_out(one_shot.stderr) == trace_id_out(through_httpx.stderr)


# -- the rule and the reading of an in-process answer ---------------------------------------

OP = bundled_operation("GET", "/lead-statuses")
PAGED = bundled_operation("POST", "/leads/all/my")


class Answerer:
    """A stand-in for the sandbox's transport: answers what it was given."""

    def __init__(self, answer: tuple[int, list[tuple[bytes, bytes]], bytes]) -> None:
        self.answer = answer
        self.seen: list[tuple[str, str, list[tuple[bytes, bytes]], bytes]] = []

    def answer_in_process(
        self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        self.seen.append((method, target, headers, body))
        return self.answer


class Stopped:
    def answer_in_process(
        self, method: str, target: str, headers: list[tuple[bytes, bytes]], body: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        raise ConnectionError("the embedded sandbox has stopped")


def test_a_transport_that_answers_in_process_goes_one_shot_even_with_a_proxy_set() -> None:
    answerer = Answerer((200, [], b"[]"))
    base = "http://sandbox.localhost"
    assert one_shot_allowed(OP, base_url=base, transport=answerer, env={})
    assert one_shot_allowed(OP, base_url=base, transport=answerer, env={"HTTPS_PROXY": "x"})
    assert not one_shot_allowed(
        OP, base_url=base, transport=answerer, env={"LEADCTL_HTTP_TRANSPORT": "httpx"}
    )
    assert not one_shot_allowed(PAGED, base_url=base, transport=answerer, env={})
    # Any other injected transport (a test's httpx.MockTransport) is httpx's.
    assert not one_shot_allowed(OP, base_url=base, transport=object(), env={})


def test_the_in_process_sandbox_transport_is_one_that_answers_in_process() -> None:
    transport = InProcessTransport(app=None)
    try:
        base = "http://sandbox.localhost"
        assert one_shot_allowed(OP, base_url=base, transport=transport, env={})
    finally:
        transport.shutdown()
    with pytest.raises(ConnectionError):
        transport.answer_in_process("GET", "/lead-statuses", [], b"")


def shot(answerer: object) -> OneShot:
    return OneShot(base_url="http://sandbox.localhost", timeout=5, in_process=answerer)  # type: ignore[arg-type]


def test_the_request_reaches_the_app_as_it_would_the_wire() -> None:
    answerer = Answerer((201, [(b"content-type", b"application/json")], b'{"ok": true}'))
    one = shot(answerer)
    request = one.build_request(
        "POST",
        "/leads",
        params={"q": "a b", "tag": ["x", "y"]},
        content=b'{"firstName": "Ann"}',
        headers=[("Authorization", "Bearer sk_test")],
    )
    response = one.receive(request)
    method, target, headers, body = answerer.seen[0]
    assert (method, target, body) == ("POST", "/leads?q=a+b&tag=x&tag=y", b'{"firstName": "Ann"}')
    assert (b"Host", b"sandbox.localhost") in headers
    assert (b"Authorization", b"Bearer sk_test") in headers
    assert (response.status_code, response.reason_phrase) == (201, "Created")
    assert response.content == b'{"ok": true}'


def test_an_in_process_answer_is_decoded_and_limited_as_a_network_one() -> None:
    zipped = gzip.compress(b'{"a": 1}')
    headers = [(b"content-encoding", b"gzip"), (b"content-length", str(len(zipped)).encode())]
    response = shot(Answerer((200, headers, zipped))).receive(shot(None).build_request("GET", "/x"))
    assert response.content == b'{"a": 1}'
    assert response.headers.get("content-encoding") is None
    assert response.headers.get("content-length") == "8"

    with pytest.raises(OneShotError) as bad:
        shot(Answerer((200, [(b"content-encoding", b"gzip")], b"not gzip"))).receive(
            shot(None).build_request("GET", "/x")
        )
    assert bad.value.kind == "decode"

    with pytest.raises(TooLarge) as big:
        shot(Answerer((200, [], b"x" * (MAX_BODY_BYTES + 1)))).receive(
            shot(None).build_request("GET", "/x")
        )
    assert isinstance(big.value.error, BadResponse)


def test_a_stopped_sandbox_is_a_request_never_sent() -> None:
    with pytest.raises(OneShotError) as stopped:
        shot(Stopped()).receive(shot(None).build_request("GET", "/x"))
    assert stopped.value.kind == "connect"

"""Answers a command cannot use: a clean error with the right exit code, never a traceback.

Every command meets a 200 whose JSON is the wrong shape (``{}``, ``[]``, ``null``, ``"x"``
and a few near misses), on a terminal (table) and piped (json). Where the body is what the
command needs (``[]`` for lead statuses) it succeeds; otherwise it is exit 8 with stdout
empty. Then bodies that are not JSON at all: invalid, non-UTF-8, HTML from a proxy, empty,
with ``--debug`` showing the start of the raw body. In process, with pytest-httpx stubs:
every stub must be used, so a command that sends more than expected fails too.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from tests.support.cli import BASE_URL, run_cli, token_env

JWT_FREE_TOKEN = "sk_test_0123456789abcdef0123"
AUTOMATION = "aut_1"


ANY_BODY = ("*",)


@dataclass(frozen=True)
class Command:
    id: str
    args: tuple[str, ...]
    method: str
    path: str
    # The bodies among BODIES that are a usable answer (exit 0); all others are exit 8.
    usable: tuple[str, ...] = ()
    stdin: str = ""


COMMANDS = (
    Command("lead-statuses list", ("lead-statuses", "list"), "GET", "/lead-statuses", ("[]",)),
    Command("leads list", ("leads", "list"), "POST", "/leads/all/my"),
    Command("leads list --count", ("leads", "list", "--count"), "POST", "/leads/all/my"),
    Command(
        "leads create",
        ("leads", "create", "--field", "firstName=Ada", "--field", "phone=+15125550143"),
        "POST",
        "/leads",
    ),
    Command(
        "sources update", ("sources", "update", "src_1", "--name", "Web"), "PUT", "/sources/src_1"
    ),
    Command(
        "sources rotate",
        ("sources", "rotate", "src_1", "--yes"),
        "POST",
        "/sources/src_1/credentials/rotate",
    ),
    Command(
        "status-changes update",
        ("status-changes", "update", "chg_1", "--notes", "n"),
        "PUT",
        "/lead-status-changes/chg_1",
    ),
    Command(
        "status-changes delete",
        ("status-changes", "delete", "chg_1", "--yes"),
        "DELETE",
        "/lead-status-changes/chg_1",
        # The answer's body is not used (204 expected): any 2xx says it is deleted.
        ANY_BODY,
    ),
    Command(
        "numbers status",
        ("numbers", "status", "+15125550100"),
        "GET",
        "/phone-numbers/%2B15125550100/status",
    ),
    Command(
        "automations runs",
        ("automations", "runs", AUTOMATION),
        "GET",
        f"/automations/{AUTOMATION}/runs",
    ),
    Command(
        "automations runs --run",
        ("automations", "runs", AUTOMATION, "--run", "run_1"),
        "GET",
        f"/automations/{AUTOMATION}/runs",
    ),
    Command(
        "notifications announcements",
        ("notifications", "announcements"),
        "POST",
        "/notifications/announcements",
    ),
    Command(
        "users compliance",
        ("users", "compliance", "--accepted-sms"),
        "PUT",
        "/users/compliance",
    ),
    Command("a2a call", ("a2a", "call", "agent.ping", "--id", "1"), "POST", "/a2a"),
    Command(
        "auth login (its check)",
        ("-p", "checked", "auth", "login", "--with-token", "--insecure-storage", "--no-contract"),
        "GET",
        "/lead-statuses",
        ("[]",),
        stdin=JWT_FREE_TOKEN,
    ),
)

# Wrong shapes: the four JSON kinds a command may not expect, and near misses.
BODIES: dict[str, Any] = {
    "{}": {},
    "[]": [],
    "null": None,
    '"x"': "x",
    "items-not-list": {"items": "x", "pageSize": 25},
    "items-not-objects": {"items": ["x", 1, None], "pageSize": 25},
    "runs-missing": {"automationId": AUTOMATION},
    "array-of-non-objects": ["x", 1, None],
    "runs-not-objects": {"automationId": AUTOMATION, "runs": ["x", 1]},
}


# The table views are where a wrong shape is most likely to crash: every body meets them;
# piped (json), the four JSON kinds are enough.
PIPED_BODIES = ("{}", "[]", "null", '"x"')


def cases() -> list[tuple[Command, str, bool]]:
    return [
        (command, body, tty)
        for command in COMMANDS
        for body in BODIES
        for tty in (False, True)
        if tty or body in PIPED_BODIES
    ]


def stub(httpx_mock: HTTPXMock, command: Command, **response: Any) -> None:
    httpx_mock.add_response(method=command.method, url=BASE_URL + command.path, **response)


def env() -> dict[str, str]:
    found = token_env(JWT_FREE_TOKEN)
    found["COLUMNS"] = "100"
    return found


def nothing_saved() -> bool:
    """`auth login` must not save a credential it could not check."""
    return not (Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials").exists()


@pytest.mark.parametrize(
    ("command", "body", "tty"),
    cases(),
    ids=[f"{c.id}: {b}-{'terminal' if t else 'piped'}" for c, b, t in cases()],
)
def test_wrong_shapes_are_exit_8(
    httpx_mock: HTTPXMock, command: Command, body: str, tty: bool
) -> None:
    stub(httpx_mock, command, json=BODIES[body])
    result = run_cli(command.args, env=env(), tty=tty, stdin=command.stdin)
    assert "Traceback" not in result.stderr
    expected = 0 if body in command.usable or command.usable == ANY_BODY else 8
    assert result.exit_code == expected, result.stderr
    if expected == 8:
        assert result.stdout == ""
        assert result.stderr.startswith("error: "), result.stderr
        assert len(result.stderr.splitlines()) <= 3
    if command.stdin and expected == 8:
        assert nothing_saved()


# -- bodies that are not JSON ---------------------------------------------------------------

RAW: dict[str, tuple[bytes, str]] = {
    "invalid JSON": (b'{"items": [{"id": "l', "application/json"),
    "wrong content type": (b"id,name\nls_1,New\n", "text/csv"),
    "non-UTF-8": (b'{"name": "\xff\xfe caf\xe9"}', "application/json"),
    "HTML from a proxy": (
        b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>",
        "text/html",
    ),
    "empty": (b"", "application/json"),
}


@pytest.mark.parametrize("raw", list(RAW))
@pytest.mark.parametrize("command", COMMANDS, ids=[c.id for c in COMMANDS])
def test_bodies_that_are_not_json_are_exit_8(
    httpx_mock: HTTPXMock, command: Command, raw: str
) -> None:
    content, content_type = RAW[raw]
    stub(httpx_mock, command, content=content, headers={"Content-Type": content_type})
    result = run_cli(command.args, env=env(), stdin=command.stdin)
    assert "Traceback" not in result.stderr
    if command.id == "status-changes delete":
        assert result.exit_code == 0, result.stderr  # the body is never read
        return
    assert result.exit_code == 8, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    if command.stdin:
        assert nothing_saved()


def test_debug_shows_the_raw_start_of_a_body_that_is_not_json(httpx_mock: HTTPXMock) -> None:
    page = b"<html><body><h1>Service Unavailable</h1>" + b"x" * 5000 + b"</body></html>"
    httpx_mock.add_response(
        url=f"{BASE_URL}/lead-statuses", content=page, headers={"Content-Type": "text/html"}
    )
    result = run_cli(["--debug", "lead-statuses", "list"], env=env())
    assert result.exit_code == 8
    assert "<html><body><h1>Service Unavailable</h1>" in result.stderr
    assert "more characters" in result.stderr  # clipped, not 5 KB of it
    assert "not JSON (text/html, 5054 bytes)" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_html_error_page_from_a_proxy_is_exit_8_with_its_kind(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{BASE_URL}/lead-statuses",
        status_code=502,
        content=b"<html><title>502 Bad Gateway</title></html>",
        headers={"Content-Type": "text/html"},
        is_reusable=True,
    )
    result = run_cli(["--max-retries", "1", "lead-statuses", "list"], env=env())
    assert result.exit_code == 8
    assert "502 Bad Gateway" in result.stderr
    assert "not a problem document (text/html" in result.stderr
    assert len(httpx_mock.get_requests()) == 2


def test_a_rotation_answer_without_a_key_is_kept_raw(httpx_mock: HTTPXMock) -> None:
    """The body may hold the only copy of the new key in a shape leadctl does not know."""
    body = json.dumps({"source": {"id": "src_1"}, "newKey": "src_unusual_shape_123456"})
    httpx_mock.add_response(
        method="POST",
        url=f"{BASE_URL}/sources/src_1/credentials/rotate",
        content=body.encode(),
        headers={"Content-Type": "application/json"},
    )
    result = run_cli(["sources", "rotate", "src_1", "--yes"], env=env())
    assert result.exit_code == 8
    assert "its raw body was kept in" in result.stderr
    kept = list((Path(os.environ["LEADCTL_DATA_DIR"]) / "recovered-secrets").iterdir())
    assert [path.read_text() for path in kept] == [body]
    assert "src_unusual_shape_123456" not in result.stderr

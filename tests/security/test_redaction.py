"""What leadctl prints never holds the credential, even when something else puts it there:
a service or proxy that echoes the Authorization header in its error, an exception whose
message carries it (shown by --debug as a traceback), a base URL with a token in it.

In process, with pytest-httpx stubs or a transport that fails on purpose.
"""

from __future__ import annotations

import json

import httpx
import pytest
from pytest_httpx import HTTPXMock

from tests.security.secrets import leaks
from tests.support.cli import BASE_URL, run_cli, token_env

TOKEN = "sk_live_Zq8uWc3pLr5tVx7yNb2mKd4f"


def echoing_problem(request: httpx.Request) -> httpx.Response:
    """A gateway that says which credential it refused, in its own words."""
    sent = request.headers["Authorization"]
    return httpx.Response(
        401,
        headers={"Content-Type": "application/problem+json"},
        json={
            "title": "Unauthorized",
            "detail": f"the key in '{sent}' is not valid",
            "errors": {"Authorization": [f"unknown key {sent.split()[-1]}"]},
            "traceId": "t-1",
        },
    )


@pytest.mark.parametrize("output", [[], ["-o", "json"]], ids=["text", "json"])
def test_an_error_that_echoes_the_credential_does_not_print_it(
    httpx_mock: HTTPXMock, output: list[str]
) -> None:
    httpx_mock.add_callback(echoing_problem, url=f"{BASE_URL}/lead-statuses")
    result = run_cli([*output, "lead-statuses", "list"], env=token_env(TOKEN))
    assert result.exit_code == 3
    found = leaks(result.stdout + result.stderr, [TOKEN])
    assert found == []
    assert "is not valid" in result.stderr  # the rest of the service's wording stays
    if output:
        assert json.loads(result.stderr)["exitCode"] == 3


def test_debug_trace_of_an_echoing_error_does_not_print_it(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_callback(echoing_problem, url=f"{BASE_URL}/lead-statuses")
    result = run_cli(["--debug", "lead-statuses", "list"], env=token_env(TOKEN))
    assert result.exit_code == 3
    assert "< 401" in result.stderr
    found = leaks(result.stderr, [TOKEN])
    assert found == []


class ExplodingTransport(httpx.BaseTransport):
    """A transport bug whose message carries the request's headers."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        raise RuntimeError(f"cannot send {dict(request.headers)!r}")


def test_a_traceback_under_debug_does_not_print_the_credential() -> None:
    result = run_cli(
        ["--debug", "lead-statuses", "list"],
        env=token_env(TOKEN),
        transport=ExplodingTransport(),
    )
    assert result.exit_code == 1
    assert "Traceback" in result.stderr
    assert "RuntimeError: cannot send" in result.stderr
    found = leaks(result.stderr, [TOKEN])
    assert found == []


@pytest.mark.parametrize(
    "url",
    [
        f"https://api.example.test/?api_key={TOKEN}",
        f"https://api.example.test/v1#{TOKEN}",
        f"ftp://api.example.test/{TOKEN}",
        f"https://api.example.test:{TOKEN}/",
        f"https://{TOKEN}@api.example.test/",
    ],
)
def test_a_bad_base_url_is_refused_without_echoing_a_token_in_it(url: str) -> None:
    for args in (["--base-url", url, "lead-statuses", "list"], ["profile", "set", "base_url", url]):
        result = run_cli(args, env={"LEADCTL_TOKEN": "sk_other_0123456789abcdefghij"})
        assert result.exit_code == 2, result.stderr
        assert "invalid base URL" in result.stderr
        found = leaks(result.stderr, [TOKEN])
    assert found == []


@pytest.mark.parametrize("bad", ["sk_live_é0123456789abcdef", "sk_live_\u200b0123456789abcdef"])
def test_a_credential_with_non_ascii_characters_is_refused_without_echoing_it(
    bad: str,
) -> None:
    result = run_cli(["--debug", "lead-statuses", "list"], env=token_env(bad))
    assert result.exit_code == 3, result.stderr
    assert "non-ASCII" in result.stderr
    assert "Traceback" not in result.stderr
    found = leaks(result.stderr, [bad])
    assert found == []


def test_auth_login_refuses_a_non_ascii_token_before_checking_it() -> None:
    bad = "sk_live_\u00e90123456789abcdef0123"
    result = run_cli(
        ["--base-url", BASE_URL, "auth", "login", "--with-token", "--insecure-storage"],
        stdin=bad,
    )
    assert result.exit_code == 2, result.stderr
    assert "non-ASCII" in result.stderr
    found = leaks(result.stderr, [bad])
    assert found == []

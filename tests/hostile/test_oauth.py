"""Issues 22.1 (OAuth messages) and 22.8 (the browser page): what an authorization server
says reaches the terminal shown, never acted on, and the page of a loopback sign-in tells
what leadctl made of the answer instead of always "Signed in"."""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from tests.hostile.checks import CLEAR_SCREEN, CLIPBOARD, acted_on
from tests.support.e2e import base_env, leadctl_executable
from tests.support.hostile_server import HostileServer, json_response
from tests.support.terminal import run_on_terminal

pytestmark = pytest.mark.e2e

EVIL = f"{CLEAR_SCREEN}{CLIPBOARD}\u202e"
SHOWN_EVIL = "\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07\\u202e"
LOGIN = ["auth", "login", "--client-id", "leadctl", "--insecure-storage", "--no-contract"]


def advertise(hostile: HostileServer) -> None:
    """The service names itself as its authorization server (RFC 9728, RFC 8414)."""
    base = hostile.base_url
    hostile.answer(
        json_response({"resource": base, "authorization_servers": [base]}),
        path="/.well-known/oauth-protected-resource",
    )
    hostile.answer(
        json_response(
            {
                "issuer": base,
                "token_endpoint": f"{base}/token",
                "device_authorization_endpoint": f"{base}/device",
                "authorization_endpoint": f"{base}/authorize",
                "code_challenge_methods_supported": ["S256"],
            }
        ),
        path="/.well-known/oauth-authorization-server",
    )


def oauth_error(description: str) -> bytes:
    return json_response({"error": "invalid_grant", "error_description": description}, 400)


def test_device_flow_messages_show_the_servers_text_safely(
    hostile: HostileServer, hostile_env: dict[str, str]
) -> None:
    advertise(hostile)
    hostile.answer(
        json_response(
            {
                "device_code": "dc_1",
                "user_code": f"ABCD{EVIL}",
                "verification_uri": f"{hostile.base_url}/verify{EVIL}",
                "expires_in": 60,
                "interval": 0,
            }
        ),
        path="/device",
    )
    hostile.answer(oauth_error(f"no such code{EVIL}"), path="/token")
    done = run_on_terminal(["--base-url", hostile.base_url, *LOGIN, "--device"], env=hostile_env)
    assert done.exit_code == 3, done.stderr
    assert acted_on(done.stderr) == []
    assert f"one-time code: ABCD{SHOWN_EVIL}" in done.stderr
    assert f"/verify{SHOWN_EVIL}" in done.stderr
    assert f"no such code{SHOWN_EVIL}" in done.stderr


# -- the browser page (22.8) --------------------------------------------------------------

AUTHORIZE_URL = re.compile(r"^\s+(http://127\.0\.0\.1:\d+/authorize\?\S+)$")


@dataclass
class BrowserLogin:
    """`auth login --web` running, with the authorization URL it printed."""

    process: subprocess.Popen[str]
    redirect_uri: str
    state: str
    stderr: list[str] = field(default_factory=list)

    def browser_returns(self, **query: str) -> httpx.Response:
        """The browser following the authorization server's redirect to leadctl."""
        return httpx.get(f"{self.redirect_uri}?{urlencode(query)}", timeout=30)

    def finish(self) -> tuple[int, str]:
        _out, err = self.process.communicate(timeout=60)
        return self.process.returncode, "".join(self.stderr) + err


@pytest.fixture
def browser_login(hostile: HostileServer, hostile_env: dict[str, str]) -> Iterator[BrowserLogin]:
    advertise(hostile)
    process = subprocess.Popen(
        [leadctl_executable(), "--base-url", hostile.base_url, *LOGIN, "--web", "--no-verify"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base_env(hostile_env),
    )
    assert process.stderr is not None
    seen: list[str] = []
    for line in process.stderr:  # at leadctl's own pace: no clock involved
        seen.append(line)
        found = AUTHORIZE_URL.search(line)
        if found:
            query = parse_qs(urlsplit(found.group(1)).query)
            yield BrowserLogin(process, query["redirect_uri"][0], query["state"][0], seen)
            break
    else:
        raise AssertionError("no authorization URL:\n" + "".join(seen))
    if process.poll() is None:
        process.kill()
        process.wait()


def test_an_answer_with_another_state_is_refused_and_the_page_says_so(
    browser_login: BrowserLogin,
) -> None:
    page = browser_login.browser_returns(state="forged", code="c_1")
    assert page.status_code == 400
    assert "refused" in page.text and "Signed in" not in page.text
    code, err = browser_login.finish()
    assert code == 3, err
    assert "different state" in err


def test_the_servers_error_is_on_the_page_escaped_and_on_the_terminal_safe(
    browser_login: BrowserLogin,
) -> None:
    description = f"<script>alert(1)</script>{EVIL}"
    page = browser_login.browser_returns(
        state=browser_login.state, error="server_error", error_description=description
    )
    assert page.status_code == 400
    assert "&lt;script&gt;" in page.text and "<script>" not in page.text
    assert "Signed in" not in page.text
    code, err = browser_login.finish()
    assert code == 3, err
    assert acted_on(err) == [] and SHOWN_EVIL in err


def test_signed_in_only_once_the_token_request_succeeded(
    hostile: HostileServer, browser_login: BrowserLogin
) -> None:
    hostile.answer(oauth_error("code already used"), path="/token")
    page = browser_login.browser_returns(state=browser_login.state, code="c_1")
    assert page.status_code == 400 and "Signed in" not in page.text
    code, err = browser_login.finish()
    assert code == 3, err


def test_the_page_says_signed_in_after_the_tokens_arrived(
    hostile: HostileServer, browser_login: BrowserLogin
) -> None:
    hostile.answer(
        json_response({"access_token": "at_1", "token_type": "Bearer", "expires_in": 3600}),
        path="/token",
    )
    answered: list[httpx.Response] = []
    browser = threading.Thread(
        target=lambda: answered.append(
            browser_login.browser_returns(state=browser_login.state, code="c_1")
        )
    )
    browser.start()
    code, err = browser_login.finish()
    browser.join(timeout=30)
    assert code == 0, err
    assert answered[0].status_code == 200 and "Signed in" in answered[0].text
    token_request = next(r for r in hostile.requests if r.path == "/token")
    assert "code=c_1" in token_request.body.decode()

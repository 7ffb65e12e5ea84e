"""OAuth sign-in end to end (issue 15): the installed leadctl against the sandbox's
authorization server over a real 127.0.0.1 socket. The test plays the person: it reads the
user code or the authorization URL from leadctl's stderr (waiting on the output, not on a
clock), approves the device code through the sandbox's approval endpoint, and follows the
authorization URL with httpx as a browser would.

Expiry is injected through the sandbox's access-token lifetime: 30 s, inside leadctl's
60 s refresh margin, so the next command refreshes at once, without any sleep.

Signing in, refreshing, Ctrl-C and logging out run the installed leadctl; a command that only
shows a stored token is used (``auth status``, a read after a browser login, the refresh that
checks the token two processes left) runs in-process (``run_in_process``: the same command
tree, config directory and socket).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.e2e import base_env, leadctl_executable, run_leadctl
from tests.support.in_process import run_in_process
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e

USER_CODE = re.compile(r"one-time code: ([A-Z]{4}-[A-Z]{4})")
AUTHORIZE_URL = re.compile(r"^\s+(http://127\.0\.0\.1:\d+/oauth/authorize\?\S+)$")


@pytest.fixture(scope="module")
def sandbox() -> Iterator[SandboxProcess]:
    """A server of this module's own: the tests change its token lifetime."""
    with sandbox_server() as server:
        yield server


def oauth_control(sandbox: SandboxProcess, **settings: Any) -> dict[str, Any]:
    response = httpx.post(sandbox.url("/oauth/_sandbox"), json=settings, timeout=10)
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


@pytest.fixture(autouse=True)
def quick_server(sandbox: SandboxProcess) -> None:
    oauth_control(sandbox, accessTokenLifetime=300, deviceInterval=0.2, decision="approve")


def grants(sandbox: SandboxProcess) -> dict[str, int]:
    found: dict[str, int] = oauth_control(sandbox)["grants"]
    return found


@dataclass
class Running:
    process: subprocess.Popen[str]
    stderr_lines: list[str]

    def read_until(self, pattern: re.Pattern[str]) -> re.Match[str]:
        """Read stderr line by line until ``pattern`` matches (the process's own pace)."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.append(line)
            found = pattern.search(line)
            if found:
                return found
        raise AssertionError("leadctl ended without printing it:\n" + "".join(self.stderr_lines))

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, out, "".join(self.stderr_lines) + err


def start(args: list[str]) -> Running:
    process = subprocess.Popen(
        [leadctl_executable(), *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base_env(),
    )
    return Running(process, [])


def approve(sandbox: SandboxProcess, user_code: str, decision: str = "approve") -> None:
    response = httpx.post(
        sandbox.url("/oauth/device"),
        json={"user_code": user_code, "decision": decision},
        timeout=10,
    )
    assert response.status_code == 200, response.text


def login_args(sandbox: SandboxProcess, profile: str, *extra: str) -> list[str]:
    # No keyring on the test host (tests/conftest.py): the 0600 file store.
    return [
        "-p",
        profile,
        "auth",
        "login",
        "--base-url",
        sandbox.base_url,
        "--insecure-storage",
        *extra,
    ]


def device_login(sandbox: SandboxProcess, profile: str, *extra: str) -> tuple[int, str]:
    running = start(login_args(sandbox, profile, "--device", *extra))
    approve(sandbox, running.read_until(USER_CODE).group(1))
    code, _out, err = running.finish()
    return code, err


def stored(profile: str) -> dict[str, Any]:
    path = Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / profile
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def token_request(sandbox: SandboxProcess, **form: str) -> httpx.Response:
    return httpx.post(sandbox.url("/oauth/token"), data=form, timeout=10)


# -- signing in -------------------------------------------------------------------------------


def test_device_login_with_dynamic_registration_then_commands_use_the_token(
    sandbox: SandboxProcess,
) -> None:
    code, err = device_login(sandbox, "dev")
    assert code == 0, err
    assert "registered leadctl" in err
    assert "logged in: profile dev, user credential" in err
    tokens = stored("dev")
    assert tokens["client_id"].startswith("dyn_")
    assert tokens["refresh_token"] and tokens["expires_at"]
    used = run_leadctl(["-p", "dev", "lead-statuses", "list", "-o", "json"])
    assert used.exit_code == 0, used.stderr
    assert isinstance(json.loads(used.stdout), list)
    status = run_in_process(["-q", "-p", "dev", "-o", "json", "auth", "status"])
    assert status.exit_code == 0, status.stderr
    shown = json.loads(status.stdout)
    assert shown["kind"] == "user" and shown["expiresAt"]
    assert shown["checked"].startswith("yes")
    # Who signed in, from the ID token (the sandbox's contract has no current-user read).
    assert "@" in shown["account"] and shown["organization"]


def test_browser_login_with_pkce_and_a_loopback_redirect(sandbox: SandboxProcess) -> None:
    running = start(login_args(sandbox, "web", "--web", "--client-id", "leadctl"))
    url = running.read_until(AUTHORIZE_URL).group(1)
    query = dict(httpx.URL(url).params)
    assert query["code_challenge_method"] == "S256" and query["state"]
    assert query["redirect_uri"].startswith("http://127.0.0.1:")
    # The browser: the authorization server redirects to leadctl's loopback receiver.
    page = httpx.get(url, follow_redirects=True, timeout=10)
    assert page.status_code == 200 and "Signed in" in page.text
    code, _out, err = running.finish()
    assert code == 0, err
    assert stored("web")["client_id"] == "leadctl"
    used = run_in_process(["-p", "web", "lead-statuses", "list", "-o", "json"])
    assert used.exit_code == 0, used.stderr


def test_a_denied_browser_login_is_exit_10(sandbox: SandboxProcess) -> None:
    oauth_control(sandbox, decision="deny")
    running = start(login_args(sandbox, "web-denied", "--web", "--client-id", "leadctl"))
    url = running.read_until(AUTHORIZE_URL).group(1)
    httpx.get(url, follow_redirects=True, timeout=10)
    code, _out, err = running.finish()
    assert code == 10, err
    assert not (Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "web-denied").exists()


def test_a_denied_device_login_is_exit_10_and_saves_nothing(sandbox: SandboxProcess) -> None:
    running = start(login_args(sandbox, "denied", "--device", "--client-id", "leadctl"))
    approve(sandbox, running.read_until(USER_CODE).group(1), decision="deny")
    code, _out, err = running.finish()
    assert code == 10, err
    assert "denied" in err
    assert not (Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "denied").exists()


def test_ctrl_c_while_polling_is_exit_130_and_saves_nothing(sandbox: SandboxProcess) -> None:
    running = start(login_args(sandbox, "interrupted", "--device", "--client-id", "leadctl"))
    running.read_until(re.compile("Waiting for the approval"))
    running.process.send_signal(signal.SIGINT)
    code, _out, err = running.finish()
    assert code == 130, err
    assert "Traceback" not in err
    config = Path(os.environ["LEADCTL_CONFIG_DIR"])
    assert not (config / "credentials" / "interrupted").exists()
    assert not (config / "config.toml").exists()


def test_ctrl_c_while_waiting_for_the_browser_is_exit_130(sandbox: SandboxProcess) -> None:
    running = start(login_args(sandbox, "web-interrupted", "--web", "--client-id", "leadctl"))
    running.read_until(AUTHORIZE_URL)
    running.process.send_signal(signal.SIGINT)
    code, _out, err = running.finish()
    assert code == 130, err
    assert "Traceback" not in err
    assert not (Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "web-interrupted").exists()


# -- refreshing ---------------------------------------------------------------------------------


def test_an_expiring_token_is_refreshed_silently_with_exactly_one_refresh_grant(
    sandbox: SandboxProcess,
) -> None:
    oauth_control(sandbox, accessTokenLifetime=30)  # inside the 60 s margin
    code, err = device_login(sandbox, "short", "--client-id", "leadctl")
    assert code == 0, err
    before = grants(sandbox).get("refresh_token", 0)
    old = stored("short")
    used = run_leadctl(["-q", "-p", "short", "lead-statuses", "list", "-o", "json"])
    assert used.exit_code == 0, used.stderr
    assert used.stderr == ""  # silently
    assert grants(sandbox).get("refresh_token", 0) == before + 1
    new = stored("short")
    # Compared as booleans: a failing assert must not print a token.
    assert (new["access_token"] != old["access_token"]) is True
    assert (new["refresh_token"] != old["refresh_token"]) is True  # rotated, and saved
    # The rotated-away refresh token no longer works.
    replay = token_request(
        sandbox, grant_type="refresh_token", refresh_token=old["refresh_token"], client_id="leadctl"
    )
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"


def test_a_refused_refresh_is_exit_3_saying_to_log_in_again(sandbox: SandboxProcess) -> None:
    oauth_control(sandbox, accessTokenLifetime=30)
    code, err = device_login(sandbox, "revoked", "--client-id", "leadctl")
    assert code == 0, err
    oauth_control(sandbox, revokeAll=True)
    used = run_leadctl(["-p", "revoked", "lead-statuses", "list"])
    assert used.exit_code == 3, used.stderr
    assert "invalid_grant" in used.stderr
    assert "log in again" in used.stderr and "-p revoked auth login" in used.stderr


def test_two_processes_refreshing_at_once_leave_one_valid_token(sandbox: SandboxProcess) -> None:
    oauth_control(sandbox, accessTokenLifetime=30)
    code, err = device_login(sandbox, "shared", "--client-id", "leadctl")
    assert code == 0, err
    # The first refresh answers after 2 s, so the second process meets the lock.
    sandbox.add_fault("/oauth/token", "hang=2", method="POST")
    first = start(["-p", "shared", "lead-statuses", "list", "-o", "json"])
    second = start(["-p", "shared", "lead-statuses", "list", "-o", "json"])
    results = [first.finish(), second.finish()]
    assert [r[0] for r in results] == [0, 0], [r[2] for r in results]
    # Without the lock the second would present the rotated-away refresh token, and the
    # server would revoke the whole family: the token left behind must still refresh.
    again = run_in_process(["-p", "shared", "auth", "refresh"])
    assert again.exit_code == 0, again.stderr


# -- logging out ----------------------------------------------------------------------------------


def test_logout_revokes_the_refresh_token(sandbox: SandboxProcess) -> None:
    code, err = device_login(sandbox, "leaving", "--client-id", "leadctl")
    assert code == 0, err
    refresh_token = stored("leaving")["refresh_token"]
    before = grants(sandbox).get("revocation", 0)
    out = run_leadctl(["-p", "leaving", "auth", "logout"])
    assert out.exit_code == 0, out.stderr
    assert "revoked the refresh token" in out.stderr
    assert grants(sandbox).get("revocation", 0) == before + 1
    assert not (Path(os.environ["LEADCTL_CONFIG_DIR"]) / "credentials" / "leaving").exists()
    refused = token_request(
        sandbox, grant_type="refresh_token", refresh_token=refresh_token, client_id="leadctl"
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid_grant"

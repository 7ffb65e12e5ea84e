"""The secret audit, extended to every OAuth artifact (issue 15): device and browser
sign-ins, a silent refresh, `auth refresh`, `auth status`, a refused refresh and a logout
with revocation, all with --debug, against the sandbox's authorization server.

Looked for, in every form of tests/security/secrets.py: every access and refresh token the
profiles ever held (read from the 0600 store after each step), the device codes,
authorization codes and PKCE verifiers the server saw (its test-only ``secretsSeen``), and
the code the test carried as the browser. Searched: each run's stdout and stderr, the config
dir (outside the credential store) and data dir, the sandbox's log and request log. The
only output allowed to hold one is `auth token`'s stdout (its own access token).
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.security.secrets import leaks, scan_tree
from tests.support.e2e import Completed, base_env, leadctl_executable, run_leadctl
from tests.support.sandbox_server import SandboxProcess, sandbox_server

pytestmark = pytest.mark.e2e

USER_CODE = re.compile(r"one-time code: ([A-Z]{4}-[A-Z]{4})")
AUTHORIZE_URL = re.compile(r"^\s+(http://127\.0\.0\.1:\d+/oauth/authorize\?\S+)$")


@dataclass
class Audit:
    home: Path
    runs: dict[str, Completed] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)
    printed: dict[str, str] = field(default_factory=dict)  # run -> the secret it may print

    @property
    def config_dir(self) -> Path:
        return self.home / "config"

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    def env(self) -> dict[str, str]:
        return {
            "LEADCTL_CONFIG_DIR": str(self.config_dir),
            "LEADCTL_DATA_DIR": str(self.data_dir),
            "LEADCTL_CACHE_DIR": str(self.home / "cache"),
        }

    def collect_stored(self) -> None:
        for path in (self.config_dir / "credentials").glob("*"):
            tokens = json.loads(path.read_text(encoding="utf-8"))
            self.secrets |= {tokens["access_token"], tokens.get("refresh_token") or ""}
        self.secrets.discard("")

    def run(self, label: str, args: list[str]) -> Completed:
        result = run_leadctl(["--debug", *args], env=self.env())
        self.runs[label] = result
        self.collect_stored()
        return result


def control(sandbox: SandboxProcess, query: str = "", **settings: Any) -> dict[str, Any]:
    response = httpx.post(sandbox.url(f"/oauth/_sandbox{query}"), json=settings, timeout=10)
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


def interactive_login(
    audit: Audit, sandbox: SandboxProcess, label: str, args: list[str]
) -> Completed:
    process = subprocess.Popen(
        [leadctl_executable(), "--debug", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=base_env(audit.env()),
    )
    assert process.stderr is not None
    seen: list[str] = []
    for line in process.stderr:
        seen.append(line)
        device = USER_CODE.search(line)
        if device:
            httpx.post(
                sandbox.url("/oauth/device"),
                json={"user_code": device.group(1), "decision": "approve"},
                timeout=10,
            ).raise_for_status()
            break
        browser = AUTHORIZE_URL.search(line)
        if browser:
            # The browser, one hop at a time, so the test holds the code too.
            redirect = httpx.get(browser.group(1), timeout=10)
            location = redirect.headers["location"]
            audit.secrets.add(httpx.URL(location).params["code"])
            httpx.get(location, timeout=10).raise_for_status()
            break
    out, err = process.communicate(timeout=60)
    result = Completed(process.returncode, out, "".join(seen) + err)
    audit.runs[label] = result
    audit.collect_stored()
    return result


@pytest.fixture(scope="module")
def audit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Audit, SandboxProcess]]:
    home = tmp_path_factory.mktemp("oauth-audit")
    found = Audit(home)
    with sandbox_server() as sandbox:
        control(sandbox, accessTokenLifetime=300, deviceInterval=0.2)
        base = ["--base-url", sandbox.base_url, "--insecure-storage"]
        interactive_login(
            found, sandbox, "device login", ["-p", "dev", "auth", "login", *base, "--device"]
        )
        interactive_login(
            found,
            sandbox,
            "browser login",
            ["-p", "web", "auth", "login", *base, "--web", "--client-id", "leadctl"],
        )
        control(sandbox, accessTokenLifetime=30)  # every use refreshes
        interactive_login(
            found,
            sandbox,
            "short login",
            ["-p", "short", "auth", "login", *base, "--device", "--client-id", "leadctl"],
        )
        found.run("silent refresh", ["-p", "short", "lead-statuses", "list"])
        found.run("auth refresh", ["-p", "short", "auth", "refresh"])
        found.run("status", ["-p", "short", "auth", "status", "-o", "json"])
        token = found.run("token", ["-p", "web", "auth", "token"])
        found.printed["token"] = token.stdout.strip()
        found.run("logout", ["-p", "dev", "auth", "logout"])
        control(sandbox, revokeAll=True)
        found.run("refused refresh", ["-p", "short", "lead-statuses", "list"])
        found.secrets |= set(control(sandbox, "?secrets=1")["secretsSeen"])
        found.secrets.discard("")
        yield found, sandbox


def test_the_audit_ran_every_oauth_path(audit: tuple[Audit, SandboxProcess]) -> None:
    found, sandbox = audit
    codes = {label: run.exit_code for label, run in found.runs.items()}
    assert codes == {
        "device login": 0,
        "browser login": 0,
        "short login": 0,
        "silent refresh": 0,
        "auth refresh": 0,
        "status": 0,
        "token": 0,
        "logout": 0,
        "refused refresh": 3,
    }, {label: run.stderr[-400:] for label, run in found.runs.items()}
    grants = control(sandbox)["grants"]
    assert grants["refresh_token"] >= 2 and grants["revocation"] == 1
    # Device codes, the code, the verifier, and at least 3 sign-ins' tokens plus refreshes.
    assert len(found.secrets) >= 12
    assert "> POST" in found.runs["silent refresh"].stderr  # the refresh was traced


def test_no_run_prints_an_oauth_secret(audit: tuple[Audit, SandboxProcess]) -> None:
    found, _sandbox = audit
    problems = []
    for label, run in found.runs.items():
        allowed = found.printed.get(label)
        others = [s for s in found.secrets if s != allowed]
        problems += [f"{label} (stdout): {leak}" for leak in leaks(run.stdout, others)]
        problems += [f"{label} (stderr): {leak}" for leak in leaks(run.stderr, found.secrets)]
        if "Traceback" in run.stderr:
            problems.append(f"{label}: a traceback")
    assert problems == []


def test_auth_token_prints_the_current_access_token(audit: tuple[Audit, SandboxProcess]) -> None:
    found, _sandbox = audit
    assert found.printed["token"] in found.secrets
    assert found.printed["token"].count(".") == 2  # the access token (a JWT), nothing else


def test_no_file_outside_the_store_holds_an_oauth_secret(
    audit: tuple[Audit, SandboxProcess],
) -> None:
    found, _sandbox = audit
    leaked = scan_tree(found.config_dir, found.secrets, skip=["credentials"])
    leaked += scan_tree(found.data_dir, found.secrets)
    assert leaked == []
    assert (found.config_dir / "config.toml").exists()


def test_the_store_of_oauth_tokens_is_private(audit: tuple[Audit, SandboxProcess]) -> None:
    found, _sandbox = audit

    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    store = found.config_dir / "credentials"
    assert mode(store) == 0o700
    assert sorted(p.name for p in store.iterdir()) == ["short", "web"]  # "dev" logged out
    assert all(mode(p) == 0o600 for p in store.iterdir())
    locks = found.config_dir / "locks"
    assert mode(locks) == 0o700
    assert all(p.stat().st_size == 0 for p in locks.iterdir())


def test_the_sandbox_logged_no_oauth_secret(audit: tuple[Audit, SandboxProcess]) -> None:
    found, sandbox = audit
    leaked = [f"stderr: {leak}" for leak in leaks(sandbox.stderr_text(), found.secrets)]
    log = json.dumps(sandbox.requests())
    leaked += [f"request log: {leak}" for leak in leaks(log, found.secrets)]
    assert leaked == []
    assert os.environ.get("LEADCTL_TOKEN") is None
